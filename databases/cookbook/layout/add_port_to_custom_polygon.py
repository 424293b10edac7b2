# ---
# title = "Draw a custom polygon device and give it optical ports"
# summary = "Draws a device as a polygon from a list of (x, y) points in um on a layer (add_polygon), then declares its ports with add_port (name, center, width, orientation in degrees, layer) so it can be connected and routed like a library component."
# kind = "sandbox"
# tags = ["add_port", "custom device", "polygon", "ports", "add_polygon", "draw shape", "user component"]
# apis = ["gdsfactory.Component.add_polygon", "gdsfactory.Component.add_port"]
# [expect]
# files = ["custom_taper.gds"]
# cells = ["CUSTOM_TAPER"]
# layers = ["1/0"]
# bbox = {"CUSTOM_TAPER" = [0.0, -1.0, 15.0, 1.0]}
# stdout = ["in width 0.5 at (0.0, 0.0) 180", "out width 2.0 at (15.0, 0.0) 0", "area 18.75 um2"]
# ---
import gdsfactory as gf

length = 15.0     # um
w_in = 0.5        # um
w_out = 2.0       # um
layer = (1, 0)
cell_name = "CUSTOM_TAPER"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
points = [(0, -w_in / 2), (length, -w_out / 2), (length, w_out / 2), (0, w_in / 2)]   # um
c.add_polygon(points, layer=layer)
c.add_port("in", center=(0, 0), width=w_in, orientation=180, layer=layer)
c.add_port("out", center=(length, 0), width=w_out, orientation=0, layer=layer)
c.write_gds("custom_taper.gds", with_metadata=False)

for p in c.ports:
    print(f"{p.name} width {p.width} at ({p.center[0]:.1f}, {p.center[1]:.1f}) {p.orientation:.0f}")
print(f"{cell_name}: area {c.area(layer=layer):.2f} um2")
