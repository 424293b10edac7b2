# ---
# title = "Cut a layer to a rectangular window and put the clipped part on a new layer"
# summary = "Intersects one layer under the active cell (sub-cells included) with a window box given in um (Region & Region(box)) and inserts the part inside the window on a result layer; shapes crossing the edge are cut. Use it to extract a region of interest; for a whole clipped cell with hierarchy use layout.clip."
# kind = "edit"
# tags = ["clip", "crop", "cut to window", "region of interest", "window", "trim", "extract area"]
# apis = ["pya.DBox.to_itype", "pya.Region.new", "pya.Region.__and__", "pya.Cell.begin_shapes_rec", "pya.Shapes.insert"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"70/0" = 2, "1/0" = 4}
# stdout = ["2 polygons, 62 um2"]
# ---
# Parameters
LAYER = (1, 0)
OUT = (70, 0)
WINDOW = pya.DBox(0, 0, 15, 12)      # um

window = pya.Region(WINDOW.to_itype(dbu))                    # um box -> dbu region
clipped = pya.Region(cell.begin_shapes_rec(layout.layer(*LAYER))) & window
cell.shapes(layout.layer(*OUT)).insert(clipped)
print(f"clipped {LAYER[0]}/{LAYER[1]} to {WINDOW}: {clipped.count()} polygons, {clipped.area() * dbu ** 2:g} um2 on {OUT[0]}/{OUT[1]}")
