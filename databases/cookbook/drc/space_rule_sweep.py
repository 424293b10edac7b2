# ---
# title = "Sweep a spacing rule over several values and tabulate the violations"
# summary = "Runs space_check on a layer of in.gds for a list of minimum spaces in um and writes rule_um, violations and the smallest gap found to sweep.csv, so you can see how a tighter or looser rule would change the result. Use it to pick a rule value or to see how close a design is to the limit."
# kind = "sandbox"
# tags = ["drc", "sweep", "rule value", "what if", "space check", "margin", "table", "csv"]
# apis = ["pya.Region.space_check", "pya.EdgePairs.count", "klayout.db.EdgePair.distance"]
# fixture = "drc_rules"
# [expect]
# files = ["sweep.csv"]
# csv_columns = {"sweep.csv" = ["rule_um", "violations", "smallest_gap_um"]}
# csv_rows = {"sweep.csv" = 4}
# stdout = ["0.3 um: 0", "0.4 um: 2", "0.5 um: 4"]
# ---
import csv

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
RULES = [0.2, 0.3, 0.4, 0.5]  # um

layout = pya.Layout()
layout.read(GDS)
dbu = layout.dbu
region = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER))).merged()
rows = []
for rule in RULES:
    errors = region.space_check(int(round(rule / dbu)))       # flags gaps strictly below the rule
    gaps = [ep.distance() * dbu for ep in errors.each()]
    rows.append([rule, errors.count(), round(min(gaps), 6) if gaps else ""])
    print(f"space < {rule} um: {errors.count()}")
with open("sweep.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["rule_um", "violations", "smallest_gap_um"])
    w.writerows(rows)
