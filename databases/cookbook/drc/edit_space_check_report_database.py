# ---
# title = "Spacing check on the open layout into a report database shown in the marker browser"
# summary = "In KLayout, checks a minimum space (um) on a layer of the active cell (sub-cells included), stores the violations as edge pairs in a ReportDatabase category, saves it as space.lyrdb in the work folder and, when a GUI view is open, loads it into the marker browser (view.add_rdb / show_rdb). The layout itself is not changed."
# kind = "edit"
# tags = ["drc", "space check", "report database", "lyrdb", "marker browser", "rdb", "open layout", "min space"]
# apis = ["pya.ReportDatabase.new", "pya.ReportDatabase.create_category", "pya.ReportDatabase.create_items", "pya.ReportDatabase.save", "pya.LayoutView.add_rdb", "pya.LayoutView.show_rdb"]
# fixture = "drc_rules"
# [expect]
# files = ["space.lyrdb"]
# rdb_categories = {"space.lyrdb" = ["space_0.5"]}
# rdb_items = {"space.lyrdb" = {"space_0.5" = 4}}
# stdout = ["4 space errors"]
# ---
# Parameters
LAYER = (1, 0)
MIN_SPACE = 0.5               # um
REPORT = "space.lyrdb"        # written to the work folder

region = pya.Region(cell.begin_shapes_rec(layout.layer(*LAYER))).merged()
errors = region.space_check(int(round(MIN_SPACE / dbu)))
rdb = pya.ReportDatabase("space check")
rdb.top_cell_name = cell.name
category = rdb.create_category(f"space_{MIN_SPACE:g}")
category.description = f"{LAYER[0]}/{LAYER[1]} min space {MIN_SPACE} um"
rdb.create_items(rdb.create_cell(cell.name).rdb_id(), category.rdb_id(), pya.CplxTrans(dbu), errors)
rdb.save(REPORT)
if view is not None:                                      # GUI: open it in the marker browser
    view.show_rdb(view.add_rdb(rdb), view.active_cellview_index())
print(f"{errors.count()} space errors (< {MIN_SPACE} um) on {LAYER[0]}/{LAYER[1]} -> {REPORT}")
