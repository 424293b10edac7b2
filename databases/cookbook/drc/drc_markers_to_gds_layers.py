# ---
# title = "Write DRC violations as marker polygons on extra layers of a GDS copy"
# summary = "Runs width and space checks on a layer of in.gds, turns each edge pair into the polygon between its two edges (EdgePairs.polygons, exactly the violation, not enlarged) and inserts them on one marker layer per rule in the top cell, then writes the whole layout as drc_markers.gds. Use it when a viewer or foundry tool cannot read .lyrdb."
# kind = "sandbox"
# tags = ["drc", "markers", "error layer", "marker layer", "gds", "violations as shapes", "highlight errors"]
# apis = ["pya.EdgePairs.polygons", "pya.Shapes.insert", "pya.Layout.write", "pya.Region.width_check", "pya.Region.space_check"]
# fixture = "drc_rules"
# [expect]
# files = ["drc_markers.gds"]
# layers = ["100/0", "101/0", "1/0"]
# stdout = ["1 width markers on 100/0", "4 space markers on 101/0"]
# ---
import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
RULES = [("width", 0.5, (100, 0)), ("space", 0.5, (101, 0))]   # check, min um, marker layer
OUT = "drc_markers.gds"

layout = pya.Layout()
layout.read(GDS)
top, dbu = layout.top_cell(), layout.dbu
region = pya.Region(top.begin_shapes_rec(layout.layer(*LAYER))).merged()
for check, value, marker in RULES:
    d = int(round(value / dbu))
    errors = region.width_check(d) if check == "width" else region.space_check(d)
    top.shapes(layout.layer(*marker)).insert(errors.polygons())
    print(f"{errors.count()} {check} markers on {marker[0]}/{marker[1]}")
layout.write(OUT)
print(f"wrote {OUT}")
