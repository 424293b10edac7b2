# ---
# title = "Join two laterally offset waveguides with an S-bend route"
# summary = "Connects two parallel, sideways-offset ports facing each other with a single S-bend sized to fit (gf.routing.route_single_sbend) instead of two 90-degree bends. Use it for small offsets where a Manhattan route would waste space."
# kind = "sandbox"
# tags = ["s-bend", "sbend route", "offset", "route", "smooth connection", "lateral offset"]
# apis = ["gdsfactory.routing.route_single_sbend", "gdsfactory.components.straight"]
# [expect]
# files = ["sbend_route.gds"]
# cells = ["SBEND_ROUTE"]
# layers = ["1/0"]
# bbox = {"SBEND_ROUTE" = [0.0, -0.25, 50.0, 8.25]}
# stdout = ["offset 8.0 um over 30.0 um"]
# ---
import gdsfactory as gf

gap_x = 30.0     # um between the waveguide ends
offset_y = 8.0   # um lateral offset
cell_name = "SBEND_ROUTE"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
a = c << gf.components.straight(length=10)
b = c << gf.components.straight(length=10)
b.move((10 + gap_x, offset_y))
gf.routing.route_single_sbend(c, a.ports["o2"], b.ports["o1"], cross_section="strip")
c.write_gds("sbend_route.gds", with_metadata=False)

print(f"{cell_name}: offset {offset_y} um over {gap_x} um")
