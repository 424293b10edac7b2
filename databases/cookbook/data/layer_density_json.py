# ---
# title = "Pattern density (fill fraction) of layers inside the chip area"
# summary = "Reads a layout and computes, for each layer, the merged area of its shapes inside the chip boundary divided by the boundary area (density in %). The boundary is the bbox of an outline layer if present, else the top cell's bbox. Writes density.json. For a windowed density map use Region.texts or a tiling approach; this is the global value foundries ask for."
# kind = "sandbox"
# tags = ["density", "fill factor", "coverage", "pattern density", "percent", "cmp", "json", "area ratio"]
# apis = ["pya.Region", "pya.Region.area", "pya.Region.__and__", "pya.Cell.dbbox", "pya.DBox.to_itype"]
# fixture = "data_chip"
# [expect]
# files = ["density.json"]
# json_values = {"density.json" = {"boundary_area_um2" = 1400000.0, "density_49_0_percent" = 3.657143, "num_layers" = 4}}
# stdout = ["49/0: 3.6571 %"]
# ---
import json

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "density.json"
OUTLINE = (99, 0)                          # chip outline layer (not counted itself)
LAYERS = [(1, 0), (3, 0), (47, 0), (49, 0)]

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()
um2 = layout.dbu ** 2

oli = layout.find_layer(*OUTLINE)
boundary_box = top.dbbox(oli) if oli is not None else top.dbbox()     # um
boundary = db.Region(boundary_box.to_itype(layout.dbu))                 # um -> dbu

result = {"boundary_um": [boundary_box.left, boundary_box.bottom, boundary_box.right, boundary_box.top],
          "boundary_area_um2": boundary.area() * um2}
for l, d in LAYERS:
    li = layout.find_layer(l, d)
    shapes = db.Region(top.begin_shapes_rec(li)) if li is not None else db.Region()
    dens = 100.0 * (shapes & boundary).area() / boundary.area()       # merged area inside / boundary area
    result[f"density_{l}_{d}_percent"] = round(dens, 6)
    print(f"{l}/{d}: {dens:.4f} %")
result["num_layers"] = len(LAYERS)
with open(OUTPUT, "w") as f:
    json.dump(result, f, indent=2)
print(f"wrote {OUTPUT}")
