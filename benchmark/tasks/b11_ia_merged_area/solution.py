import json
import os

region = pya.Region(cell.begin_shapes_rec(layout.layer(1, 0)))
area = region.merged().area() * dbu * dbu
json.dump({"area_um2": area}, open(os.path.join(workdir, "area.json"), "w"))
