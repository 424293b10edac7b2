# ---
# title = "Shrink the shapes of a layer in place by a distance"
# summary = "Sizes one layer of the active cell inward (Region.sized with a negative distance in dbu), replaces the old shapes with the result and reports what is left; features narrower than twice the distance vanish. Use it for an undercut/bias correction or to erode a layer."
# kind = "edit"
# tags = ["shrink", "size down", "undersize", "negative bias", "erode", "inset", "sized"]
# apis = ["pya.Region.new", "pya.Region.sized", "pya.Shapes.clear", "pya.Shapes.insert", "pya.Region.area"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"1/0" = 3}
# stdout = ["area 100 -> 67.68 um2"]
# ---
# Parameters
LAYER = (1, 0)
SHRINK = 0.3                  # um, inward on every side

shapes = cell.shapes(layout.layer(*LAYER))
before = pya.Region(shapes)
after = before.sized(-int(round(SHRINK / dbu)))   # negative = shrink
shapes.clear()
shapes.insert(after)
print(f"shrank {LAYER[0]}/{LAYER[1]} by {SHRINK} um: {before.count()} -> {after.count()} shapes, "
      f"area {before.area() * dbu ** 2:g} -> {after.area() * dbu ** 2:g} um2")
