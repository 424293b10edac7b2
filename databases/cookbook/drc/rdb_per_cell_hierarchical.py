# ---
# title = "Check every cell on its own and report violations per cell in a .lyrdb"
# summary = "Runs a width check on each cell's own shapes of a layer (in the cell's coordinates, no sub-cells), so an error in a cell placed many times is reported once, in that cell; every cell with shapes becomes a report-database cell and the items go under one category, saved as per_cell.lyrdb. Prints errors per cell and how many placements each has."
# kind = "sandbox"
# tags = ["drc", "per cell", "hierarchical report", "lyrdb", "cell by cell", "library cells", "report database"]
# apis = ["pya.ReportDatabase.create_cell", "pya.ReportDatabase.create_items", "pya.Layout.each_cell", "pya.Cell.shapes", "pya.Region.width_check", "pya.Cell.each_parent_inst", "pya.ParentInstArray.inst", "pya.Instance.size"]
# fixture = "hier_array"
# [expect]
# files = ["per_cell.lyrdb"]
# rdb_categories = {"per_cell.lyrdb" = ["width_1.2"]}
# rdb_items = {"per_cell.lyrdb" = {"width_1.2" = 1}}
# stdout = ["UNIT: 1 errors (placed 7 times)", "TOP: 0 errors"]
# ---
import klayout.db as pya
from klayout import rdb

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
MIN_WIDTH = 1.2               # um

layout = pya.Layout()
layout.read(GDS)
dbu = layout.dbu
li = layout.layer(*LAYER)
report = rdb.ReportDatabase("per-cell DRC")
report.top_cell_name = layout.top_cell().name
cat = report.create_category(f"width_{MIN_WIDTH:g}")
cat.description = f"{LAYER[0]}/{LAYER[1]} min width {MIN_WIDTH} um, each cell on its own"
for c in layout.each_cell():
    own = pya.Region(c.shapes(li))                 # this cell's shapes only, its own coordinates
    if own.is_empty():
        continue
    errors = own.width_check(int(round(MIN_WIDTH / dbu)))
    rdb_cell = report.create_cell(c.name)
    report.create_items(rdb_cell.rdb_id(), cat.rdb_id(), pya.CplxTrans(dbu), errors)
    placements = sum(p.inst().size() for p in c.each_parent_inst())   # direct placements; 0 for the top cell
    print(f"{c.name}: {errors.count()} errors (placed {placements} times)")
report.save("per_cell.lyrdb")
