# ---
# title = "Snap the shapes of a layer to a manufacturing grid"
# summary = "Rounds every vertex of one layer in the active cell to a grid given in um (Region.snapped with the grid in dbu) and writes the snapped shapes back in place of the old ones. Use it when a mask shop requires, e.g., a 5 nm grid; check the result with a grid check."
# kind = "edit"
# tags = ["snap", "grid", "off-grid", "manufacturing grid", "round coordinates", "mask grid"]
# apis = ["pya.Region.new", "pya.Region.snapped", "pya.Shapes.clear", "pya.Shapes.insert", "pya.Region.bbox"]
# fixture = "drc_rules"
# [expect]
# shapes = {"7/0" = 1}
# stdout = ["(0,50;1.005,51.5)"]
# ---
# Parameters (um)
LAYER, DATATYPE = 7, 0
GRID = 0.005

g = int(round(GRID / dbu))                       # grid in dbu
shapes = cell.shapes(layout.layer(LAYER, DATATYPE))
snapped = pya.Region(shapes).snapped(g, g)
shapes.clear()
shapes.insert(snapped)
print(f"snapped {snapped.count()} shapes on {LAYER}/{DATATYPE} to {GRID} um: bbox {snapped.bbox().to_dtype(dbu)}")
