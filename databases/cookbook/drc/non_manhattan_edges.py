# ---
# title = "Find non-Manhattan (off-axis) and 45-degree edges"
# summary = "Takes the edges of a layer of in.gds (Region.edges) and counts the ones that are neither horizontal nor vertical (Edges.with_angle(OrthoEdges, inverse)) and the diagonal 45-degree ones (DiagonalEdges), with their total length in um, into edges.json. Use it where only Manhattan or 45-degree geometry is allowed."
# kind = "sandbox"
# tags = ["drc", "non-manhattan", "off-grid angle", "45 degree", "diagonal", "all-angle", "edge orientation"]
# apis = ["pya.Region.edges", "pya.Edges.with_angle", "pya.Edges.OrthoEdges", "pya.Edges.DiagonalEdges", "pya.Edges.length"]
# fixture = "drc_rules"
# [expect]
# files = ["edges.json"]
# json_values = {"edges.json" = {"edges" = 11, "non_manhattan" = 3, "diagonal_45" = 2}}
# stdout = ["3 of 11 edges are non-Manhattan"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (5, 0)

layout = pya.Layout()
layout.read(GDS)
edges = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER))).edges()
off_axis = edges.with_angle(pya.Edges.OrthoEdges, True)       # inverse: not 0 / 90 deg
diagonal = edges.with_angle(pya.Edges.DiagonalEdges, False)   # exactly +-45 deg
report = {"edges": edges.count(), "non_manhattan": off_axis.count(), "diagonal_45": diagonal.count(),
          "non_manhattan_length_um": round(off_axis.length() * layout.dbu, 4)}
with open("edges.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"{off_axis.count()} of {edges.count()} edges are non-Manhattan ({diagonal.count()} at 45 deg)")
