"""A small test chip: place PDK devices, label them, and report layer areas and device boxes."""
import csv
import json

import gdsfactory as gf
import klayout.db as kdb

gf.gpdk.PDK.activate()

chip = gf.Component("DEVICES")
devices = {
    "MMI": (gf.components.mmi1x2(), (0, 0)),
    "RING": (gf.components.ring_single(radius=10), (0, 100)),
    "RIB": (gf.components.straight(length=50, cross_section="rib"), (0, 100)),
}
boxes = {}
for name, (component, (x, y)) in devices.items():
    ref = chip << component
    ref.move((x, y))
    chip.add_label(name, position=(x, y), layer=(10, 0))
    b = ref.dbbox()
    boxes[name] = (b.left, b.bottom, b.right, b.top)

chip.write_gds("devices.gds")

# layer areas from the written file, merged over the whole hierarchy
ly = kdb.Layout()
ly.read("devices.gds")
top = ly.top_cell()
areas = {}
for li in ly.layer_indexes():
    info = ly.get_info(li)
    region = kdb.Region(top.begin_shapes_rec(li))
    if region.is_empty():
        continue
    areas[f"{info.layer}/{info.datatype}"] = region.merged().area() * ly.dbu ** 2
with open("layer_areas.json", "w") as f:
    json.dump(areas, f, indent=1)

with open("devices.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["name", "xmin", "ymin", "xmax", "ymax"])
    for name, b in boxes.items():
        w.writerow([name, *b])
print(areas)
