import json

d = json.load(open("width.json"))
# 0.2, 0.35, 0.45 µm boxes in TOP and the 0.3 µm box in SUB; 0.5 µm is not a violation
assert int(d["violations"]) == 4, f"violations {d['violations']}, expected 4"
