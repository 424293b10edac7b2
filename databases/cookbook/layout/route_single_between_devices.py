# ---
# title = "Connect two devices with a single waveguide route and report its length"
# summary = "Routes one output port of a device to the input of another placed elsewhere with gf.routing.route_single (Manhattan route of straights and Euler bends on a cross-section) and prints the route length in um and the number of 90-degree bends. Note: the route's length attribute is in database units (1 nm)."
# kind = "sandbox"
# tags = ["route", "routing", "waveguide route", "connect ports", "manhattan", "route length", "bends"]
# apis = ["gdsfactory.routing.route_single", "gdsfactory.components.mmi1x2", "gdsfactory.Component.move"]
# [expect]
# files = ["routed_pair.gds"]
# cells = ["ROUTED_PAIR"]
# layers = ["1/0"]
# stdout = ["route length 117.149 um", "2 bends"]
# bbox = {"ROUTED_PAIR" = [-10.0, -1.25, 115.5, 51.25]}
# ---
import gdsfactory as gf

offset = (100.0, 50.0)   # um, where the second MMI goes
cell_name = "ROUTED_PAIR"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
first = c << gf.components.mmi1x2()
second = c << gf.components.mmi1x2()
second.move(offset)
route = gf.routing.route_single(c, first.ports["o2"], second.ports["o1"], cross_section="strip")
c.write_gds("routed_pair.gds", with_metadata=False)

length_um = route.length * c.kcl.dbu     # route.length is in database units
print(f"{cell_name}: route length {length_um:.3f} um, {route.n_bend90} bends")
