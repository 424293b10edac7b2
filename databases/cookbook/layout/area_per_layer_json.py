# ---
# title = "Polygon area of a component on each of its layers (um2), to JSON"
# summary = "Computes the drawn area in um2 on every layer a component uses with Component.area(layer=...) (hierarchy included) and writes a JSON object layer -> area, plus the total. Use it for fill-factor or metal-density estimates of a device."
# kind = "sandbox"
# tags = ["area", "layer area", "um2", "density", "per layer", "coverage", "metal area"]
# apis = ["gdsfactory.Component.area", "gdsfactory.Component.layers", "gdsfactory.components.straight_heater_metal"]
# [expect]
# files = ["heater_areas.json"]
# json_keys = {"heater_areas.json" = ["areas_um2", "total_um2"]}
# json_values = {"heater_areas.json" = {"areas_um2" = {"1/0" = 50.0, "47/0" = 559.0}}}
# stdout = ["1/0: 50.00 um2"]
# ---
import json

import gdsfactory as gf

gf.gpdk.PDK.activate()

c = gf.components.straight_heater_metal(length=100)
areas = {}
for layer in sorted(c.layers):
    areas[f"{layer[0]}/{layer[1]}"] = round(c.area(layer=layer), 4)   # um2
with open("heater_areas.json", "w") as f:
    json.dump({"areas_um2": areas, "total_um2": round(sum(areas.values()), 4)}, f, indent=1)

for name, a in areas.items():
    print(f"{name}: {a:.2f} um2")
