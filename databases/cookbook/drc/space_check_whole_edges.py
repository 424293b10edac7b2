# ---
# title = "Spacing markers on the violating part only vs on the whole edges"
# summary = "Runs space_check on a layer of in.gds twice, with whole_edges False (markers cover only the part of each edge that is too close) and True (the full edges), and reports the marker edge lengths in um in whole_edges.json. Use whole edges when you want the complete offending edges highlighted."
# kind = "sandbox"
# tags = ["drc", "whole edges", "marker length", "space check", "options", "projection", "edge pair"]
# apis = ["pya.Region.space_check", "pya.Region.Projection", "pya.EdgePair.first", "pya.EdgePair.second", "pya.Edge.length"]
# fixture = "drc_rules"
# [expect]
# files = ["whole_edges.json"]
# json_values = {"whole_edges.json" = {"partial_length_um" = 26.0, "whole_length_um" = 33.0, "violations" = 2}}
# stdout = ["26 um of marker edges (partial), 33 um (whole)"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
MIN_SPACE = 0.5               # um

layout = pya.Layout()
layout.read(GDS)
dbu = layout.dbu
region = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER)))
d = int(round(MIN_SPACE / dbu))


def marker_length(errors):
    """Summed length of both edges of every edge pair, um."""
    return sum(ep.first.length() + ep.second.length() for ep in errors.each()) * dbu


partial = region.space_check(d, False, pya.Region.Projection)   # (d, whole_edges, metrics)
whole = region.space_check(d, True, pya.Region.Projection)
report = {"violations": partial.count(), "partial_length_um": round(marker_length(partial), 6),
          "whole_length_um": round(marker_length(whole), 6)}
with open("whole_edges.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"{report['partial_length_um']:g} um of marker edges (partial), {report['whole_length_um']:g} um (whole)")
