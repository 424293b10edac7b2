"""Boolean layers from silicon (1/0) and mask (2/0), with an area report and a consistency check."""
import json
import os

si = pya.Region(cell.shapes(layout.layer(1, 0))).merged()
mask = pya.Region(cell.begin_shapes_rec(layout.layer(2, 0))).merged()

results = {
    (3, 0): si & mask,
    (4, 0): si - mask,
    (5, 0): si ^ mask,
    (6, 0): mask.sized(int(round(0.5 / dbu))) - si,
}
for (l, d), region in results.items():
    target = cell.shapes(layout.layer(l, d))
    target.clear()
    target.insert(region.merged())


def area_um2(region):
    return region.merged().area() * dbu * dbu


areas = {"1/0": area_um2(si), "2/0": area_um2(mask)}
for (l, d), region in results.items():
    areas[f"{l}/{d}"] = area_um2(region)

if abs(areas["3/0"] + areas["4/0"] - areas["1/0"]) > 0.01:
    raise RuntimeError(f"AND + NOT does not add up: {areas}")

with open(os.path.join(workdir, "areas.json"), "w") as f:
    json.dump(areas, f, indent=1)
for k, v in areas.items():
    print(f"{k}: {v:.3f} um2")
