import csv

import gdsfactory as gf
import klayout.db as kdb

gf.gpdk.PDK.activate()
rows = []
for radius in (5, 10, 15, 20):
    c = gf.components.ring_single(radius=radius)
    box = c.dbbox()
    c.write_gds(f"ring_{radius}.gds")
    ly = kdb.Layout()
    ly.read(f"ring_{radius}.gds")
    region = kdb.Region(ly.top_cell().begin_shapes_rec(ly.layer(1, 0))).merged()
    rows.append([radius, box.width(), box.height(), region.area() * ly.dbu ** 2])
with open("ring_sweep.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["radius_um", "width_um", "height_um", "wg_area_um2"])
    w.writerows(rows)
