# ---
# title = "Add a rectangle to the active cell"
# summary = "Runner self-test: inserts a 3 x 1 um box on 5/0 in the active cell and writes a JSON count."
# kind = "edit"
# tags = ["rectangle", "self-test"]
# apis = ["pya.Shapes.insert"]
# fixture = "small_chip"
# [expect]
# files = ["count.json"]
# layers = ["5/0"]
# shapes = {"5/0" = 1, "1/0" = 1, "2/0" = 2}
# json_values = {"count.json" = {"shapes_1_0_total" = 2}}
# bbox = {"TOP" = [0.0, 0.0, 24.0, 31.0]}
# stdout = ["added"]
# ---
import json

cell.shapes(layout.layer(5, 0)).insert(pya.DBox(0, 0, 3, 1))
n = sum(c.shapes(layout.layer(1, 0)).size() for c in layout.each_cell())
json.dump({"shapes_1_0_total": n}, open("count.json", "w"))
print(f"added a box to {cell.name}")
