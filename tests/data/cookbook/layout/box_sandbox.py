# ---
# title = "A 10 um x 5 um rectangle in a named cell, written to GDS"
# summary = "Runner self-test: draws one box with klayout.db and writes box.gds; reads in.gds and counts its 2/0 shapes."
# kind = "sandbox"
# tags = ["rectangle", "self-test"]
# apis = ["klayout.db.Layout.write"]
# fixture = "small_chip"
# [expect]
# files = ["box.gds", "box.json", "box.csv"]
# cells = ["BOX"]
# layers = ["1/0"]
# bbox = {"BOX" = [0.0, 0.0, 10.0, 5.0]}
# json_values = {"box.json" = {"area_um2" = 50.0, "input_2_0" = 2, "layers" = {"1/0" = 1}}}
# csv_columns = {"box.csv" = ["name", "value"]}
# csv_rows = {"box.csv" = 2}
# stdout = ["area 50.0 um2"]
# ---
import csv
import json

import klayout.db as kdb

ly = kdb.Layout()
top = ly.create_cell("BOX")
top.shapes(ly.layer(1, 0)).insert(kdb.DBox(0, 0, 10, 5))
ly.write("box.gds")
inp = kdb.Layout()
inp.read("in.gds")
n2 = inp.top_cell().shapes(inp.layer(2, 0)).size()
json.dump({"area_um2": 50.0, "input_2_0": n2, "layers": {"1/0": 1}}, open("box.json", "w"))
with open("box.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["name", "value"])
    w.writerow(["area", 50.0])
    w.writerow(["shapes", 1])
print("area 50.0 um2")
