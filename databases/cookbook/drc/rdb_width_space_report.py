# ---
# title = "Minimum width and minimum spacing checks on a layer, written to a .lyrdb report database"
# summary = "Runs a minimum width and a minimum space check on one layer of in.gds and stores the violations as edge pairs in a ReportDatabase with one named category per rule (e.g. width_0.5, space_0.5) under the top cell, saved as drc.lyrdb for KLayout's marker browser (Tools > Marker Browser). Prints the counts per category."
# kind = "sandbox"
# tags = ["drc", "report database", "lyrdb report", "rdb", "marker browser", "categories", "min width", "min spacing", "spacing check", "results"]
# apis = ["pya.ReportDatabase.new", "pya.ReportDatabase.create_category", "pya.ReportDatabase.create_cell", "pya.ReportDatabase.create_items", "pya.ReportDatabase.save", "pya.RdbCategory.description", "pya.CplxTrans.new"]
# fixture = "drc_rules"
# [expect]
# files = ["drc.lyrdb"]
# rdb_categories = {"drc.lyrdb" = ["width_0.5", "space_0.5"]}
# rdb_items = {"drc.lyrdb" = {"width_0.5" = 1, "space_0.5" = 4}}
# stdout = ["width_0.5: 1", "space_0.5: 4"]
# ---
import klayout.db as pya
from klayout import rdb

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
MIN_WIDTH = 0.5               # um
MIN_SPACE = 0.5               # um
REPORT = "drc.lyrdb"

layout = pya.Layout()
layout.read(GDS)
top, dbu = layout.top_cell(), layout.dbu
region = pya.Region(top.begin_shapes_rec(layout.layer(*LAYER))).merged()

report = rdb.ReportDatabase("DRC")
report.top_cell_name = top.name
rdb_cell = report.create_cell(top.name)
to_um = pya.CplxTrans(dbu)                     # the report stores um coordinates
checks = {f"width_{MIN_WIDTH:g}": (region.width_check(int(round(MIN_WIDTH / dbu))), f"min width {MIN_WIDTH} um"),
          f"space_{MIN_SPACE:g}": (region.space_check(int(round(MIN_SPACE / dbu))), f"min space {MIN_SPACE} um")}
for name, (errors, text) in checks.items():
    cat = report.create_category(name)
    cat.description = f"{LAYER[0]}/{LAYER[1]}: {text}"
    report.create_items(rdb_cell.rdb_id(), cat.rdb_id(), to_um, errors)   # one item per edge pair
    print(f"{name}: {errors.count()} violations")
report.save(REPORT)
print(f"saved {report.num_items()} items to {REPORT}")
