# ---
# title = "Import an existing GDS file as a component and place it in a new design"
# summary = "Reads a GDS file's top cell into gdsfactory with gf.import_gds (keeping its sub-cells), places it twice in a new named top cell with a pitch in um and writes the result. Use it to reuse a foundry block or an earlier layout inside a gdsfactory design."
# kind = "sandbox"
# tags = ["import gds", "reuse", "existing layout", "black box", "foundry cell", "read gds", "place"]
# apis = ["gdsfactory.import_gds", "gdsfactory.Component.add_ref", "gdsfactory.Component.write_gds"]
# fixture = "chip_with_device"
# [expect]
# files = ["reused.gds"]
# cells = ["TWO_CHIPS", "DEVICE"]
# layers = ["1/0", "2/0"]
# bbox = {"TWO_CHIPS" = [0.0, 0.0, 24.0, 54.0]}
# stdout = ["imported TOP: 24.0 x 4.0 um"]
# ---
import gdsfactory as gf

in_file = "in.gds"    # the layout to reuse
pitch = 50.0          # um, vertical distance between the two copies
cell_name = "TWO_CHIPS"

gf.gpdk.PDK.activate()

block = gf.import_gds(in_file)          # its top cell, sub-cells kept as cells
c = gf.Component(cell_name)
c << block
second = c << block
second.movey(pitch)
c.write_gds("reused.gds", with_metadata=False)

print(f"imported {block.name}: {block.xsize:.1f} x {block.ysize:.1f} um, placed twice in {cell_name}")
