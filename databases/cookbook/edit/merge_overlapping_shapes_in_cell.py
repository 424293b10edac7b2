# ---
# title = "Merge the overlapping shapes of a layer into single polygons in a cell"
# summary = "Replaces the shapes of one layer in a cell (by name, or the active cell) with their merged Region, so overlapping and touching pieces become one polygon each. Use it to clean up a layer drawn from many overlapping boxes before export or DRC."
# kind = "edit"
# tags = ["merge", "union", "fuse", "combine overlapping", "clean up", "one polygon", "merged"]
# apis = ["pya.Layout.cell", "pya.Region.new", "pya.Region.merged", "pya.Shapes.clear", "pya.Shapes.insert"]
# fixture = "hier_array"
# [expect]
# cells = ["UNIT"]
# stdout = ["UNIT 1/0: 2 shapes -> 1 polygons"]
# ---
# Parameters
CELL_NAME = "UNIT"            # None = the active cell
LAYER = (1, 0)

target = cell if CELL_NAME is None else layout.cell(CELL_NAME)
shapes = target.shapes(layout.layer(*LAYER))
before = shapes.size()
merged = pya.Region(shapes).merged()
shapes.clear()
shapes.insert(merged)
print(f"{target.name} {LAYER[0]}/{LAYER[1]}: {before} shapes -> {shapes.size()} polygons")
