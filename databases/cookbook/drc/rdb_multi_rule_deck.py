# ---
# title = "A small rule deck in Python: many checks on several layers into one report database"
# summary = "Runs a table of rules (width, space, notch, min area, via enclosure, vias outside metal, layer separation, overlap, acute angles) on in.gds and writes each rule's violations to its own sub-category of a per-layer category in rules.lyrdb (edge pairs, or polygons with their area as a text value), plus a JSON summary of counts. Adapt the RULES table to your process."
# kind = "sandbox"
# tags = ["drc", "rule deck", "lyrdb", "report database", "categories", "sub-categories", "many rules", "python drc", "summary"]
# apis = ["pya.ReportDatabase.create_category", "pya.ReportDatabase.create_items", "pya.ReportDatabase.create_item", "pya.RdbItem.add_value", "pya.Region.width_check", "pya.Region.enclosing_check", "pya.Region.with_area"]
# fixture = "drc_rules"
# [expect]
# files = ["rules.lyrdb", "rules.json"]
# rdb_categories = {"rules.lyrdb" = ["core", "core.width", "core.space", "metal.notch", "metal.min_area", "via.enclosure", "via.outside_metal", "heater.separation", "heater.overlap", "angles.acute"]}
# rdb_items = {"rules.lyrdb" = {"core.width" = 1, "core.space" = 4, "metal.notch" = 1, "metal.min_area" = 2, "via.enclosure" = 1, "via.outside_metal" = 2, "heater.separation" = 1, "heater.overlap" = 1, "angles.acute" = 4}}
# json_values = {"rules.json" = {"total" = 17, "counts" = {"core.width" = 1, "via.outside_metal" = 2}}}
# stdout = ["17 violations in 9 rules"]
# ---
import json

import klayout.db as pya
from klayout import rdb

GDS = "in.gds"
layout = pya.Layout()
layout.read(GDS)
top, dbu = layout.top_cell(), layout.dbu


def L(layer, datatype=0):
    """A layer of the top cell, flat and merged."""
    return pya.Region(top.begin_shapes_rec(layout.layer(layer, datatype))).merged()


def um(x):
    return int(round(x / dbu))


core, metal, via, metal2, heater, angled = L(1), L(2), L(4), L(3), L(6), L(5)

# Parameters: (category, rule, description, result) -- values in um / um2 / degrees
RULES = [
    ("core", "width", "min width 0.5 um", core.width_check(um(0.5))),
    ("core", "space", "min space 0.5 um", core.space_check(um(0.5))),
    ("metal", "notch", "min notch 0.5 um", metal.notch_check(um(0.5))),
    ("metal", "min_area", "min area 1 um2", metal.with_area(0, int(1.0 / dbu ** 2), False)),
    ("via", "enclosure", "metal encloses via by 0.3 um", metal2.enclosing_check(via, um(0.3))),
    ("via", "outside_metal", "via not inside metal", via.not_inside(metal2)),
    ("heater", "separation", "heater to metal 1.0 um", metal2.separation_check(heater, um(1.0))),
    ("heater", "overlap", "heater/metal overlap 0.5 um", metal2.overlap_check(heater, um(0.5))),
    ("angles", "acute", "no corner below 90 deg", angled.with_angle(0, 90, False)),
]

report = rdb.ReportDatabase("rule deck")
report.top_cell_name = top.name
cell_id = report.create_cell(top.name).rdb_id()
to_um = pya.CplxTrans(dbu)
parents, counts = {}, {}
for group, rule, text, result in RULES:
    if group not in parents:
        parents[group] = report.create_category(group)
    cat = report.create_category(parents[group], rule)       # shows as group.rule
    cat.description = text
    if isinstance(result, pya.Region):                      # polygons: one item each, area as a text value
        for poly in result.each():
            item = report.create_item(cell_id, cat.rdb_id())
            item.add_value(poly.to_dtype(dbu))
            item.add_value(f"area {poly.area() * dbu ** 2:g} um2")
    else:                                                   # edge pairs
        report.create_items(cell_id, cat.rdb_id(), to_um, result)
    counts[f"{group}.{rule}"] = result.count()
report.save("rules.lyrdb")
with open("rules.json", "w") as f:
    json.dump({"total": sum(counts.values()), "counts": counts}, f, indent=2)
print(f"{sum(counts.values())} violations in {len(RULES)} rules -> rules.lyrdb")
for k, v in counts.items():
    print(f"  {k}: {v}")
