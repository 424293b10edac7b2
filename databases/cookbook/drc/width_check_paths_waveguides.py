# ---
# title = "Minimum width of waveguides drawn as paths (and other shapes) on a layer"
# summary = "Reads in.gds, turns every shape of a layer (paths included: a Region converts paths to their polygons) into a Region and checks a minimum width in um; lists each violation's location and the narrowest path width found. Use it to make sure no waveguide or wire was drawn too thin."
# kind = "sandbox"
# tags = ["drc", "waveguide width", "path width", "min width", "thin trace", "wire", "path"]
# apis = ["pya.Region.new", "pya.Region.width_check", "pya.Shapes.each", "pya.Shape.is_path", "pya.Shape.path_dwidth"]
# fixture = "mixed_shapes"
# [expect]
# files = ["path_width.json"]
# json_values = {"path_width.json" = {"violations" = 1, "paths" = 1, "narrowest_path_um" = 0.5}}
# stdout = ["1 places narrower than 0.6 um"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
MIN_WIDTH = 0.6               # um

layout = pya.Layout()
layout.read(GDS)
top = layout.top_cell()
li = layout.layer(*LAYER)
region = pya.Region(top.begin_shapes_rec(li))                 # paths become polygons here
errors = region.width_check(int(round(MIN_WIDTH / layout.dbu)))
path_widths = [s.path_dwidth for s in top.shapes(li).each() if s.is_path()]   # um, this cell's paths
report = {"violations": errors.count(), "paths": len(path_widths),
          "narrowest_path_um": min(path_widths) if path_widths else None,
          "centers_um": [[ep.bbox().center().x * layout.dbu, ep.bbox().center().y * layout.dbu] for ep in errors.each()]}
with open("path_width.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"{errors.count()} places narrower than {MIN_WIDTH} um on {LAYER[0]}/{LAYER[1]}; narrowest path {report['narrowest_path_um']} um")
