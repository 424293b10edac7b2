import json
import os

region = pya.Region(cell.shapes(layout.layer(1, 0)))
json.dump({"area_um2": region.merged().area() * dbu * dbu}, open(os.path.join(workdir, "area.json"), "w"))
