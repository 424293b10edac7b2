# ---
# title = "Run several design rules on the open layout and write a pass/fail summary to JSON"
# summary = "In KLayout, runs a short list of checks on layers of the active cell (width, space, notch, minimum area; values in um and um2), puts every violation on one marker layer per rule, and writes the counts per rule, the total and an overall pass flag to drc_summary.json in the work folder."
# kind = "edit"
# tags = ["drc", "summary", "pass fail", "rule list", "json", "markers", "open layout", "sign-off"]
# apis = ["pya.Region.width_check", "pya.Region.space_check", "pya.Region.notch_check", "pya.Region.with_area", "pya.EdgePairs.polygons", "pya.Shapes.insert"]
# fixture = "drc_rules"
# [expect]
# files = ["drc_summary.json"]
# shapes = {"110/0" = 1, "111/0" = 4, "112/0" = 1, "113/0" = 2}
# json_values = {"drc_summary.json" = {"total" = 8, "pass" = false, "counts" = {"width_1/0" = 1, "space_1/0" = 4, "notch_2/0" = 1, "area_2/0" = 2}}}
# stdout = ["8 violations: FAIL"]
# ---
import json

# Parameters: (check, layer, value in um or um2, marker layer)
RULES = [("width", (1, 0), 0.5, (110, 0)), ("space", (1, 0), 0.5, (111, 0)),
         ("notch", (2, 0), 0.5, (112, 0)), ("area", (2, 0), 1.0, (113, 0))]

counts = {}
for check, ld, value, marker in RULES:
    region = pya.Region(cell.begin_shapes_rec(layout.layer(*ld))).merged()
    if check == "area":
        bad = region.with_area(0, int(value / dbu ** 2), False)      # polygons below the area
    else:
        d = int(round(value / dbu))
        edge_pairs = {"width": region.width_check, "space": region.space_check, "notch": region.notch_check}[check](d)
        bad = edge_pairs.polygons()            # each violation as the polygon between its edges
    cell.shapes(layout.layer(*marker)).insert(bad)
    counts[f"{check}_{ld[0]}/{ld[1]}"] = bad.count()
total = sum(counts.values())
with open("drc_summary.json", "w") as f:
    json.dump({"counts": counts, "total": total, "pass": total == 0}, f, indent=2)
print(f"{total} violations: {'PASS' if total == 0 else 'FAIL'} " + ", ".join(f"{k}={v}" for k, v in counts.items()))
