import json
import os

counts = {}
for li in layout.layer_indexes():
    n = 0
    it = cell.begin_shapes_rec(li)
    while not it.at_end():
        n += 1
        it.next()
    if n:
        info = layout.get_info(li)
        counts[f"{info.layer}/{info.datatype}"] = n
json.dump(counts, open(os.path.join(workdir, "layer_counts.json"), "w"))
