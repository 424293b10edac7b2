import csv

import gdsfactory as gf
import klayout.db as kdb

gf.gpdk.PDK.activate()
with open("ring_sweep.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["radius_um", "width_um", "height_um", "wg_area_um2"])
    for radius in (5, 10, 15, 20):
        c = gf.components.ring_single(radius=radius)
        b = c.dbbox()
        w.writerow([radius, b.width(), b.height(), b.width() * b.height()])
