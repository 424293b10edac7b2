import json

d = json.load(open("enclosure.json"))
expected = sorted([(19.75, 2.0), (0.2, 0.2), (32.0, 3.65), (50.0, 2.0)])
got = sorted((round(float(x), 3), round(float(y), 3)) for x, y in d["centers"])
assert int(d["count"]) == len(expected), f"count {d['count']}, expected {len(expected)}"
assert got == expected, f"failing vias {got}, expected {expected}"
