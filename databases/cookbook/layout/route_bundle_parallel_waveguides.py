# ---
# title = "Route a bundle of parallel waveguides between two groups of ports"
# summary = "Connects a group of output ports to a group of input ports with gf.routing.route_bundle, which routes all waveguides together with a separation in um and no crossings (e.g. between two waveguide arrays with different pitches); prints each route's length in um."
# kind = "sandbox"
# tags = ["route bundle", "bus", "parallel routes", "waveguide bundle", "separation", "multiple routes", "fan-in"]
# apis = ["gdsfactory.routing.route_bundle", "gdsfactory.components.array"]
# [expect]
# files = ["bundle.gds"]
# cells = ["BUNDLE"]
# layers = ["1/0"]
# stdout = ["4 routes", "283.27 278.27 273.27 268.27 um"]
# bbox = {"BUNDLE" = [0.0, -0.25, 210.0, 115.25]}
# ---
import gdsfactory as gf

n = 4                  # waveguides in the bundle
pitch_left = 10.0      # um, pitch of the source array
pitch_right = 5.0      # um, pitch of the destination array
separation = 3.0       # um between routed waveguides
cell_name = "BUNDLE"

gf.gpdk.PDK.activate()

def bank(pitch):
    return gf.components.array(gf.components.straight(length=10), columns=1, rows=n, row_pitch=pitch, column_pitch=0)

c = gf.Component(cell_name)
left = c << bank(pitch_left)
right = c << bank(pitch_right)
right.move((200, 100))
outs = [p for p in left.ports if p.name.startswith("o2")]    # east ends of the left bank
ins = [p for p in right.ports if p.name.startswith("o1")]    # west ends of the right bank
routes = gf.routing.route_bundle(c, outs, ins, cross_section="strip", separation=separation)
c.write_gds("bundle.gds", with_metadata=False)

lengths = " ".join(f"{r.length * c.kcl.dbu:.2f}" for r in routes)   # lengths are in database units
print(f"{cell_name}: {len(routes)} routes, lengths {lengths} um")
