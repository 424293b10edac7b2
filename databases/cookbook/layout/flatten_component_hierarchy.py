# ---
# title = "Flatten a component: replace its sub-cell instances by their polygons"
# summary = "Turns a hierarchical component into a single flat cell with flatten() on a copy (cached cells are locked), so all polygons live in the top cell and no instances remain; prints instance counts before and after. Use it before tools that want flat geometry."
# kind = "sandbox"
# tags = ["flatten", "flat", "hierarchy", "instances", "merge cells", "single cell"]
# apis = ["gdsfactory.Component.flatten", "gdsfactory.Component.copy", "gdsfactory.Component.insts"]
# [expect]
# files = ["ring_flat.gds"]
# cells = ["RING_FLAT"]
# layers = ["1/0"]
# stdout = ["instances 6 -> 0"]
# ---
import gdsfactory as gf
import klayout.db as kdb

cell_name = "RING_FLAT"

gf.gpdk.PDK.activate()

c = gf.components.ring_single(radius=10).copy()   # a copy: cached cells cannot be modified
c.name = cell_name
before = len(c.insts)
c.flatten()                                       # polygons of every sub-cell into this cell
c.write_gds("ring_flat.gds", with_metadata=False)

ly = kdb.Layout()
ly.read("ring_flat.gds")
print(f"{cell_name}: instances {before} -> {len(c.insts)}, cells in file {ly.cells()}")
