"""1x2 splitter with output arms; exposed ports as CSV and JSON."""
import csv
import json

import gdsfactory as gf

gf.gpdk.PDK.activate()

ARM = 10.0
c = gf.Component("SPLIT")
mmi = c << gf.components.mmi1x2()
upper = c << gf.components.straight(length=ARM)
lower = c << gf.components.straight(length=ARM)
upper.connect("o1", mmi.ports["o2"])
lower.connect("o1", mmi.ports["o3"])

c.add_port("in1", port=mmi.ports["o1"])
c.add_port("out1", port=upper.ports["o2"])
c.add_port("out2", port=lower.ports["o2"])
c.write_gds("split.gds")

rows = []
for p in c.ports:
    rows.append([p.name, p.center[0], p.center[1], p.orientation, p.width])
rows.sort(key=lambda r: r[0])
with open("split_ports.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["name", "x", "y", "orientation", "width"])
    w.writerows(rows)

lengths = {"in1": 0.0, "out1": ARM, "out2": ARM}
with open("split_ports.json", "w") as f:
    json.dump(lengths, f, indent=1)

for r in rows:
    print(*r)
