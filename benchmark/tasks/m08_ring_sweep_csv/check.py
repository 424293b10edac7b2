import csv

import gdsfactory as gf
import klayout.db as kdb

gf.gpdk.PDK.activate()
rows = list(csv.DictReader(open("ring_sweep.csv")))
got = {round(float(r["radius_um"])): r for r in rows}
assert sorted(got) == [5, 10, 15, 20], f"radii {sorted(got)}"
for radius, r in got.items():
    c = gf.components.ring_single(radius=radius)
    b = c.dbbox()
    c.write_gds("_ref.gds", with_metadata=False)
    ly = kdb.Layout()
    ly.read("_ref.gds")
    area = kdb.Region(ly.top_cell().begin_shapes_rec(ly.layer(1, 0))).merged().area() * ly.dbu ** 2
    assert abs(float(r["width_um"]) - b.width()) < 0.01, f"radius {radius}: width {r['width_um']} != {b.width()}"
    assert abs(float(r["height_um"]) - b.height()) < 0.01, f"radius {radius}: height {r['height_um']} != {b.height()}"
    assert abs(float(r["wg_area_um2"]) - area) / area < 0.005, f"radius {radius}: area {r['wg_area_um2']} != {area:.3f}"
