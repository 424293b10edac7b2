# ---
# title = "Grow a layer by different amounts in x and in y"
# summary = "Uses Region.sized(dx, dy, mode) with separate horizontal and vertical distances in um (converted to dbu) on one layer of the active cell and writes the result back in place. Use it when a bias applies only in one direction, e.g. widening a slab sideways but not lengthwise."
# kind = "edit"
# tags = ["anisotropic", "grow x", "grow y", "directional bias", "sized dx dy", "widen", "stretch"]
# apis = ["pya.Region.new", "pya.Region.sized", "pya.Shapes.clear", "pya.Shapes.insert", "pya.Region.bbox"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"2/0" = 1}
# stdout = ["(4,-1;26,4)", "110 um2"]
# ---
# Parameters (um)
LAYER = (2, 0)
GROW_X, GROW_Y = 1.0, 0.0

shapes = cell.shapes(layout.layer(*LAYER))
dx, dy = int(round(GROW_X / dbu)), int(round(GROW_Y / dbu))
# pass the mode (2 = default corners) too: sized(dx, dy) with two numbers means sized(d, mode)
grown = pya.Region(shapes).sized(dx, dy, 2)
shapes.clear()
shapes.insert(grown)
print(f"grew {LAYER[0]}/{LAYER[1]} by {GROW_X} um in x, {GROW_Y} um in y: bbox {grown.bbox().to_dtype(dbu)}, "
      f"{grown.area() * dbu ** 2:g} um2")
