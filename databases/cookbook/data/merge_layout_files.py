# ---
# title = "Combine several GDS/OASIS files into one layout, each placed at an offset"
# summary = "Builds a new layout with a top cell and, for each (file, x, y) in PLACEMENTS, reads the file, copies its top cell with all sub-cells into the new layout (clashing cell names get a $n suffix) and places it at (x, y) um. Writes combined.gds. The same file may be listed twice (e.g. two copies of a die)."
# kind = "sandbox"
# tags = ["merge layouts", "combine gds", "assemble", "multi-project wafer", "tile", "copy cell", "import gds", "place file"]
# apis = ["pya.Layout.create_cell", "pya.Cell.copy_tree", "pya.Cell.insert", "pya.DCellInstArray", "pya.Layout.write"]
# fixture = "data_chip"
# [expect]
# bbox = {"ASSEMBLY" = [-100.0, -300.0, 2800.0, 700.0]}
# files = ["combined.gds"]
# cells = ["ASSEMBLY", "TOP_0", "TOP_1", "MMI1X2", "MMI1X2$1"]
# layers = ["1/0", "49/0"]
# stdout = ["2 layouts", "2900.000 x 1000.000 um"]
# ---
import klayout.db as db

PLACEMENTS = [("in.gds", 0.0, 0.0),        # (file, x um, y um)
              ("in.gds", 1500.0, 0.0)]
TOP_NAME = "ASSEMBLY"
OUTPUT = "combined.gds"

target = db.Layout()
target.dbu = 0.001
top = target.create_cell(TOP_NAME)

for i, (path, x, y) in enumerate(PLACEMENTS):
    src = db.Layout()
    src.read(path)
    holder = target.create_cell(f"{src.top_cell().name}_{i}")   # one cell per placed file
    holder.copy_tree(src.top_cell())            # copies shapes and sub-cells (renamed on clashes)
    top.insert(db.DCellInstArray(holder.cell_index(), db.DTrans(db.DVector(x, y))))

target.write(OUTPUT)
b = top.dbbox()
print(f"combined {len(PLACEMENTS)} layouts into {TOP_NAME}: {len(list(target.each_cell()))} cells, "
      f"{b.width():.3f} x {b.height():.3f} um; wrote {OUTPUT}")
