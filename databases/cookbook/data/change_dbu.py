# ---
# title = "Change the database unit (dbu) of a layout file without changing its geometry"
# summary = "Reads a layout and writes it with a new database unit (e.g. 0.001 um -> 0.0005 um) through SaveLayoutOptions.dbu, which rescales every coordinate so sizes in um stay the same. Reads the output back and compares bbox and the area of each layer in um2 to prove it. Going to a coarser dbu snaps coordinates that are not on the new grid."
# kind = "sandbox"
# tags = ["dbu", "database unit", "grid", "resolution", "rescale", "nm", "precision", "SaveLayoutOptions"]
# apis = ["pya.SaveLayoutOptions", "pya.SaveLayoutOptions.dbu", "pya.Layout.dbu", "pya.Layout.write", "pya.Region.area", "pya.Region.merged_semantics"]
# fixture = "data_chip"
# [expect]
# bbox = {"TOP" = [-100.0, -300.0, 1300.0, 700.0]}
# files = ["dbu_changed.gds", "dbu_change.json"]
# json_values = {"dbu_change.json" = {"dbu_before" = 0.001, "dbu_after" = 0.0005, "width_um_after" = 1400.0, "geometry_unchanged" = true}}
# stdout = ["dbu 0.001 -> 0.0005 um"]
# ---
import json

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "dbu_changed.gds"
NEW_DBU = 0.0005          # um per database unit


def areas_um2(ly):
    """Raw (unmerged) area per layer in um2: merging would round slanted-edge intersections to the grid."""
    top = ly.top_cell()
    result = {}
    for li in ly.layer_indexes():
        region = db.Region(top.begin_shapes_rec(li))
        region.merged_semantics = False
        result[f"{ly.get_info(li).layer}/{ly.get_info(li).datatype}"] = round(region.area() * ly.dbu ** 2, 6)
    return result


src = db.Layout()
src.read(INPUT)
opts = db.SaveLayoutOptions()
opts.dbu = NEW_DBU                 # the writer rescales coordinates to the new unit
src.write(OUTPUT, opts)

out = db.Layout()
out.read(OUTPUT)
b0, b1 = src.top_cell().dbbox(), out.top_cell().dbbox()
same = b0 == b1 and areas_um2(src) == areas_um2(out)
report = {"dbu_before": src.dbu, "dbu_after": out.dbu,
          "width_um_before": b0.width(), "width_um_after": b1.width(),
          "geometry_unchanged": same}
with open("dbu_change.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"dbu {src.dbu} -> {out.dbu} um; bbox {b1}; geometry unchanged: {same}; wrote {OUTPUT}")
