# ---
# title = "Report database with several categories from the open layout (edge pairs and polygons)"
# summary = "In KLayout, runs a width check, a notch check and a minimum-area check on layers of the active cell and saves a ReportDatabase with one category per rule: edge pairs for width/notch, and for small shapes one item per polygon with its area as a text value, in checks.lyrdb in the work folder."
# kind = "edit"
# tags = ["drc", "report database", "lyrdb", "categories", "items", "polygon values", "marker browser", "open layout"]
# apis = ["pya.ReportDatabase.new", "pya.ReportDatabase.create_category", "pya.ReportDatabase.create_item", "pya.RdbItem.add_value", "pya.ReportDatabase.create_items", "pya.ReportDatabase.save"]
# fixture = "drc_rules"
# [expect]
# files = ["checks.lyrdb"]
# rdb_categories = {"checks.lyrdb" = ["width_0.5", "notch_0.5", "min_area_1"]}
# rdb_items = {"checks.lyrdb" = {"width_0.5" = 1, "notch_0.5" = 1, "min_area_1" = 2}}
# stdout = ["4 items in 3 categories"]
# ---
# Parameters
CORE = (1, 0)
METAL = (2, 0)
MIN_WIDTH, MIN_NOTCH, MIN_AREA = 0.5, 0.5, 1.0   # um, um, um2


def region(ld):
    return pya.Region(cell.begin_shapes_rec(layout.layer(*ld))).merged()


rdb = pya.ReportDatabase("checks")
rdb.top_cell_name = cell.name
cell_id = rdb.create_cell(cell.name).rdb_id()
to_um = pya.CplxTrans(dbu)

width = rdb.create_category(f"width_{MIN_WIDTH:g}")
rdb.create_items(cell_id, width.rdb_id(), to_um, region(CORE).width_check(int(round(MIN_WIDTH / dbu))))
notch = rdb.create_category(f"notch_{MIN_NOTCH:g}")
rdb.create_items(cell_id, notch.rdb_id(), to_um, region(METAL).notch_check(int(round(MIN_NOTCH / dbu))))
small = rdb.create_category(f"min_area_{MIN_AREA:g}")
for poly in region(METAL).with_area(0, int(MIN_AREA / dbu ** 2), False).each():
    item = rdb.create_item(cell_id, small.rdb_id())
    item.add_value(poly.to_dtype(dbu))                        # the polygon in um
    item.add_value(f"area {poly.area() * dbu ** 2:g} um2")    # and a text value
rdb.save("checks.lyrdb")
print(f"{rdb.num_items()} items in 3 categories -> checks.lyrdb")
