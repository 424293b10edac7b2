# ---
# title = "Waveguide crossing (four-port intersection) placed at a position"
# summary = "Places the generic PDK's low-loss waveguide crossing (crossing) with its center at a chosen (x, y) in um; ports o1 west, o2 north, o3 east, o4 south. Use it where two waveguides must intersect in a single layer."
# kind = "sandbox"
# tags = ["crossing", "waveguide crossing", "intersection", "cross", "four port"]
# apis = ["gdsfactory.components.crossing", "gdsfactory.Component.move", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["crossing.gds"]
# cells = ["XING"]
# layers = ["1/0"]
# bbox = {"XING" = [46.0, 16.0, 54.0, 24.0]}
# stdout = ["o1 (46.0, 20.0) 180", "o2 (50.0, 24.0) 90", "o3 (54.0, 20.0) 0", "o4 (50.0, 16.0) 270"]
# ---
import gdsfactory as gf

center = (50.0, 20.0)   # um, where the crossing's center goes
cell_name = "XING"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
x = c << gf.components.crossing()
x.move(center)              # the crossing is built around (0, 0): move its center to `center`
c.add_ports(x.ports)
c.write_gds("crossing.gds", with_metadata=False)

for p in sorted(c.ports, key=lambda p: p.name):
    print(f"{p.name} ({p.center[0]:.1f}, {p.center[1]:.1f}) {p.orientation:.0f}")
