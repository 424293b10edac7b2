import json
import os

region = pya.Region(cell.begin_shapes_rec(layout.layer(1, 0)))
json.dump({"area_um2": region.merged().area()}, open(os.path.join(workdir, "area.json"), "w"))
