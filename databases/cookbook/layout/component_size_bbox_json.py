# ---
# title = "Measure a component's bounding box, size and center and save them as JSON"
# summary = "Reads the footprint of a built component: bbox() (left, bottom, right, top in um), xsize/ysize and the center, and writes them to JSON with the port count. Use it to check a device fits its allotted area or to place it by its size."
# kind = "sandbox"
# tags = ["bbox", "bounding box", "size", "footprint", "dimensions", "extent", "measure"]
# apis = ["gdsfactory.Component.bbox", "gdsfactory.Component.xsize", "gdsfactory.Component.ysize", "gdsfactory.Component.center"]
# [expect]
# files = ["ring_size.json"]
# json_values = {"ring_size.json" = {"bbox_um" = [-17.0, -0.25, 13.0, 21.55], "width_um" = 30.0, "height_um" = 21.8, "n_ports" = 2}}
# stdout = ["30.000 x 21.800 um"]
# ---
import json

import gdsfactory as gf

gf.gpdk.PDK.activate()

ring = gf.components.ring_single(radius=10, gap=0.2)
box = ring.bbox()                                   # DBox in um
info = {
    "bbox_um": [round(box.left, 3), round(box.bottom, 3), round(box.right, 3), round(box.top, 3)],
    "width_um": round(ring.xsize, 3),
    "height_um": round(ring.ysize, 3),
    "center_um": [round(v, 3) for v in ring.center],
    "n_ports": len(ring.ports),
}
with open("ring_size.json", "w") as f:
    json.dump(info, f)
print(f"ring_single: {ring.xsize:.3f} x {ring.ysize:.3f} um, center {info['center_um']}")
