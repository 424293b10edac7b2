import json
import os

counts = {}
for li in layout.layer_indexes():
    n = cell.shapes(li).size()
    if n:
        info = layout.get_info(li)
        counts[f"{info.layer}/{info.datatype}"] = n
with open(os.path.join(workdir, "layer_counts.json"), "w") as f:
    json.dump(counts, f)
