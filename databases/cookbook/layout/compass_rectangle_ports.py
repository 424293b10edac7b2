# ---
# title = "Centered metal rectangle with electrical ports on its edges (compass)"
# summary = "Builds a rectangle centered on the origin with one electrical port in the middle of each edge (gf.components.compass: e1 west, e2 north, e3 east, e4 south), size in um, on a metal layer (M1 41/0). Use it as a contact or heater pad that routes can attach to."
# kind = "sandbox"
# tags = ["compass", "rectangle", "electrical ports", "contact", "metal", "centered"]
# apis = ["gdsfactory.components.compass", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["compass.gds"]
# cells = ["CONTACT_30x10"]
# layers = ["41/0"]
# bbox = {"CONTACT_30x10" = [-15.0, -5.0, 15.0, 5.0]}
# stdout = ["e1 (-15.0, 0.0) width 10.0", "e2 (0.0, 5.0) width 30.0"]
# ---
import gdsfactory as gf

size = (30.0, 10.0)   # um, width x height
layer = "M1"          # 41/0 in the generic PDK
cell_name = "CONTACT_30x10"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.compass(size=size, layer=layer, port_type="electrical")
c.add_ports(ref.ports)
c.write_gds("compass.gds", with_metadata=False)

for p in sorted(c.ports, key=lambda p: p.name):
    print(f"{p.name} ({p.center[0]:.1f}, {p.center[1]:.1f}) width {p.width:.1f}")
