import json

d = json.load(open("coupler.json"))
bar, cross = float(d["bar"]), float(d["cross"])
assert abs(bar - 0.7) < 1e-3, f"bar power {bar}, expected 0.7"
assert abs(cross - 0.3) < 1e-3, f"cross power {cross}, expected 0.3"
