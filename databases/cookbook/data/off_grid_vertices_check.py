# ---
# title = "Check that every vertex of a layout lies on the manufacturing grid (off-grid report)"
# summary = "Reads a layout and checks every polygon, box and path vertex in every cell against a grid in um (e.g. 5 nm): coordinates that are not integer multiples of the grid are off-grid and often rejected by mask shops. Writes off_grid.json with the number of off-grid vertices per cell and layer and a few example points in um. Check per cell definition, so each problem is reported once."
# kind = "sandbox"
# tags = ["grid", "off-grid", "snap", "manufacturing grid", "5 nm", "vertices", "mask", "tape-out check", "json"]
# apis = ["pya.Shapes.each", "pya.Shape.polygon", "pya.Polygon.each_point_hull", "pya.Layout.each_cell", "pya.Layout.dbu"]
# fixture = "data_library"
# [expect]
# files = ["off_grid.json"]
# json_values = {"off_grid.json" = {"grid_um" = 0.005, "num_off_grid_vertices" = 2, "num_cells_with_errors" = 1, "clean" = false}}
# stdout = ["DEVICE_A 1/0: 2 off-grid vertices"]
# ---
import json

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "off_grid.json"
GRID = 0.005           # um

layout = db.Layout()
layout.read(INPUT)
g = round(GRID / layout.dbu)          # grid in database units (integer)

report, examples, total = {}, [], 0
for cell in layout.each_cell():
    for li in layout.layer_indexes():
        n = 0
        for shape in cell.shapes(li).each():
            if shape.is_text():
                continue
            for p in shape.polygon.each_point_hull():     # boxes and paths converted to polygons
                if p.x % g or p.y % g:
                    n += 1
                    if len(examples) < 10:
                        examples.append([cell.name, p.x * layout.dbu, p.y * layout.dbu])
        if n:
            info = layout.get_info(li)
            report.setdefault(cell.name, {})[f"{info.layer}/{info.datatype}"] = n
            total += n
            print(f"{cell.name} {info.layer}/{info.datatype}: {n} off-grid vertices")

with open(OUTPUT, "w") as f:
    json.dump({"grid_um": GRID, "num_off_grid_vertices": total, "num_cells_with_errors": len(report),
               "per_cell": report, "examples_um": examples, "clean": total == 0}, f, indent=2)
print(f"{total} vertices off the {GRID} um grid in {len(report)} cells; wrote {OUTPUT}")
