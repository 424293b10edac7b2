# ---
# title = "Via enclosure check: metal must surround each via by a margin"
# summary = "Checks that the metal layer encloses the via layer by at least a margin in um (metal.enclosing_check(via, d)) and, since that check only measures vias that are inside, also counts vias not fully inside metal (via.not_inside(metal)). Writes both counts to enclosure.json. Use it for via/contact enclosure rules."
# kind = "sandbox"
# tags = ["drc", "enclosure", "via enclosure", "metal overlap of via", "contact", "surround", "enclosing"]
# apis = ["pya.Region.new", "pya.Region.enclosing_check", "pya.Region.not_inside", "pya.EdgePairs.count", "pya.Region.count"]
# fixture = "drc_rules"
# [expect]
# files = ["enclosure.json"]
# json_values = {"enclosure.json" = {"enclosure_violations" = 1, "vias_not_inside" = 2, "vias" = 4}}
# stdout = ["1 vias enclosed by less than 0.3 um", "2 vias not inside"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
METAL = (3, 0)
VIA = (4, 0)
MIN_ENCLOSURE = 0.3           # um

layout = pya.Layout()
layout.read(GDS)
top = layout.top_cell()
metal = pya.Region(top.begin_shapes_rec(layout.layer(*METAL)))
via = pya.Region(top.begin_shapes_rec(layout.layer(*VIA)))
short = metal.enclosing_check(via, int(round(MIN_ENCLOSURE / layout.dbu)))   # outer.enclosing_check(inner, d)
outside = via.not_inside(metal)                                              # partly or fully outside
report = {"vias": via.count(), "enclosure_violations": short.count(), "vias_not_inside": outside.count(),
          "min_enclosure_um": MIN_ENCLOSURE}
with open("enclosure.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"{short.count()} vias enclosed by less than {MIN_ENCLOSURE} um, {outside.count()} vias not inside metal")
