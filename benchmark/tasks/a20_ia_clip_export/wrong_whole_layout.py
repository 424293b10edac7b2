"""Clip a window of the current cell into a flat cell CLIP, export it and report areas."""
import json
import os

WINDOW = pya.DBox(0, 0, 50, 40)
win = WINDOW.to_itype(dbu)

clip = layout.create_cell("CLIP")
areas = {}
for li in layout.layer_indexes():
    region = pya.Region(cell.begin_shapes_rec(li)) & pya.Region(win)
    region = region.merged()
    if region.is_empty():
        continue
    clip.shapes(li).insert(region)
    info = layout.get_info(li)
    areas[f"{info.layer}/{info.datatype}"] = region.area() * dbu * dbu

opts = pya.SaveLayoutOptions()
opts.format = "OASIS"
pass
layout.write(os.path.join(workdir, "clip.oas"), opts)

b = clip.dbbox()
with open(os.path.join(workdir, "clip.json"), "w") as f:
    json.dump({"layers": areas, "bbox_um": [b.left, b.bottom, b.right, b.top]}, f, indent=1)
print(areas)
