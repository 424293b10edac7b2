"""Grating-coupler loopback, then a per-layer width/space DRC of the written layout."""
import json

import gdsfactory as gf
import klayout.db as kdb

gf.gpdk.PDK.activate()

c = gf.Component("LOOPBACK")
gc = gf.get_component("grating_coupler_te")
left = c << gc
left.rotate(180)
right = c << gc
right.move((300, 0))
p1, p2 = left.ports["o1"], right.ports["o1"]
route = gf.routing.route_single(c, p1, p2, cross_section="strip")
c.write_gds("loopback.gds")
route_length = abs(p2.center[0] - p1.center[0])

ly = kdb.Layout()
ly.read("loopback.gds")
top = ly.top_cell()
report = {}
for li in ly.layer_indexes():
    region = kdb.Region(top.begin_shapes_rec(li))
    if region.is_empty():
        continue
    info = ly.get_info(li)
    report[f"{info.layer}/{info.datatype}"] = {
        "width": region.width_check(int(round(0.4 / ly.dbu))).count(),
        "space": region.space_check(int(round(0.2 / ly.dbu))).count(),
    }
report["route_length_um"] = route_length
with open("loopback_drc.json", "w") as f:
    json.dump(report, f, indent=1)
print(report)
