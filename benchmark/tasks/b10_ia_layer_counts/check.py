import json
import os

got = json.load(open(os.path.join(workdir, "layer_counts.json")))
assert got == {"1/0": 7, "2/0": 3, "41/2": 5}, f"counts {got}"
