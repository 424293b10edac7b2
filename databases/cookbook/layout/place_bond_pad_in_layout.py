# ---
# title = "Add a metal bond pad of a chosen size to the open layout with gdsfactory"
# summary = "Builds a rectangular metal pad (gf.components.pad) of width x height in um on the top metal 49/0, names the cell and writes it without metadata for pic-copilot to place in the open layout."
# kind = "new"
# tags = ["pad", "bond pad", "metal", "place", "insert", "open layout", "electrical"]
# apis = ["gdsfactory.components.pad", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["pad_new.gds"]
# cells = ["PAD_120x60"]
# layers = ["49/0"]
# bbox = {"PAD_120x60" = [-60.0, -30.0, 60.0, 30.0]}
# stdout = ["PAD_120x60: 120.0 x 60.0 um"]
# ---
import gdsfactory as gf

size = (120.0, 60.0)    # um
cell_name = "PAD_120x60"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.pad(size=size)
c.add_ports(ref.ports)
c.write_gds("pad_new.gds", with_metadata=False)
print(f"{cell_name}: {c.xsize:.1f} x {c.ysize:.1f} um")
