import csv

import gdsfactory as gf

gf.gpdk.PDK.activate()
c = gf.components.mmi2x2()
with open("ports.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["name", "x", "y", "orientation", "width"])
    for p in c.ports:
        w.writerow([p.name, p.center[0], p.center[1], p.orientation, p.width])
