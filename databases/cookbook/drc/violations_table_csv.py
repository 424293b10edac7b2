# ---
# title = "All violations of several rules in one CSV table (rule, layer, position, measured value)"
# summary = "Runs a list of single-layer checks (width, space, notch with their minimum in um) on in.gds and writes one row per violation: rule, layer, x_um, y_um (marker centre), measured_um (EdgePair.distance) and min_um, to violations.csv. Use it to sort, filter or hand over DRC results as a spreadsheet."
# kind = "sandbox"
# tags = ["drc", "csv", "violations table", "spreadsheet", "results", "locations", "measured value", "report"]
# apis = ["pya.Region.width_check", "pya.Region.space_check", "pya.Region.notch_check", "klayout.db.EdgePair.distance", "pya.EdgePair.bbox"]
# fixture = "drc_rules"
# [expect]
# files = ["violations.csv"]
# csv_columns = {"violations.csv" = ["rule", "layer", "x_um", "y_um", "measured_um", "min_um"]}
# csv_rows = {"violations.csv" = 6}
# stdout = ["6 violations"]
# ---
import csv

import klayout.db as pya

# Parameters: (rule, layer, min um)
GDS = "in.gds"
RULES = [("width", (1, 0), 0.5), ("space", (1, 0), 0.5), ("notch", (2, 0), 0.5)]

layout = pya.Layout()
layout.read(GDS)
top, dbu = layout.top_cell(), layout.dbu
rows = []
for rule, ld, value in RULES:
    region = pya.Region(top.begin_shapes_rec(layout.layer(*ld))).merged()
    check = {"width": region.width_check, "space": region.space_check, "notch": region.notch_check}[rule]
    for ep in check(int(round(value / dbu))).each():
        c = ep.bbox().center()
        rows.append([rule, f"{ld[0]}/{ld[1]}", round(c.x * dbu, 4), round(c.y * dbu, 4),
                     round(ep.distance() * dbu, 4), value])
with open("violations.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["rule", "layer", "x_um", "y_um", "measured_um", "min_um"])
    w.writerows(rows)
print(f"{len(rows)} violations -> violations.csv")
