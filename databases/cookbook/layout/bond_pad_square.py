# ---
# title = "Square metal bond pad of a given size on the top metal layer"
# summary = "Builds an electrical bond/probe pad (pad) of a width x height in um on the top metal (MTOP, 49/0) with electrical ports on its four edges (e1 west, e2 north, e3 east, e4 south) and a 'pad' port at its center, and writes it to GDS."
# kind = "sandbox"
# tags = ["pad", "bond pad", "probe pad", "metal pad", "electrical", "wire bond"]
# apis = ["gdsfactory.components.pad", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["pad.gds"]
# cells = ["PAD_80"]
# layers = ["49/0"]
# bbox = {"PAD_80" = [-40.0, -40.0, 40.0, 40.0]}
# stdout = ["5 ports", "e1 e2 e3 e4 pad"]
# ---
import gdsfactory as gf

size = (80.0, 80.0)   # um, width x height
layer = "MTOP"        # top metal of the generic PDK (49/0)
cell_name = "PAD_80"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.pad(size=size, layer=layer)
c.add_ports(ref.ports)
c.write_gds("pad.gds", with_metadata=False)

names = " ".join(sorted(p.name for p in c.ports))
print(f"{cell_name}: {len(c.ports)} ports ({names}), area {c.xsize * c.ysize:.0f} um2")
