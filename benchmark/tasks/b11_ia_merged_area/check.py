import json
import os

got = float(json.load(open(os.path.join(workdir, "area.json")))["area_um2"])
expected = 100 + 100 - 25 + 100 + 3 * 16
assert abs(got - expected) < 1e-6, f"area {got}, expected {expected}"
