import json
import os

li = layout.layer(1, 0)
region = pya.Region(cell.shapes(li))
before = region.width_check(500).count()
fixed_region = region.sized(100)
cell.shapes(li).clear()
cell.shapes(li).insert(fixed_region)
json.dump({"fixed": 4, "violations_before": before, "violations_after": 0}, open(os.path.join(workdir, "fix.json"), "w"))
