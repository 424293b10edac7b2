import json
import os

counts = {}
for li in layout.layer_indexes():
    if cell.shapes(li).size():
        counts[str(layout.get_info(li).layer)] = cell.shapes(li).size()
json.dump(counts, open(os.path.join(workdir, "layer_counts.json"), "w"))
