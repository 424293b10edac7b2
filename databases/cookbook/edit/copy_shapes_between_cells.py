# ---
# title = "Copy the shapes of one layer from another cell into the current cell at an offset"
# summary = "Looks up a source cell by name and inserts each of its shapes on a layer into the active cell, shifted by dx, dy in um (Shapes.insert(shape, DTrans)). Only that cell's own shapes are copied, not its sub-cells. Use it to reuse a drawn outline from a library cell as plain shapes."
# kind = "edit"
# tags = ["copy shapes", "between cells", "reuse", "duplicate", "from cell", "paste shapes", "offset copy"]
# apis = ["pya.Layout.cell", "pya.Cell.shapes", "pya.Shapes.each", "pya.Shapes.insert", "pya.DTrans.new"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"3/0" = 1}
# stdout = ["copied 1 shapes", "(75,-5;85,5)"]
# ---
# Parameters
SRC_CELL = "PAD"
LAYER = (3, 0)
DX, DY = 80.0, 0.0            # um

src = layout.cell(SRC_CELL)
if src is None:
    raise ValueError(f"no cell named {SRC_CELL}")
li = layout.layer(*LAYER)
shift = pya.DTrans(pya.DVector(DX, DY))
copied = [cell.shapes(li).insert(s, shift) for s in src.shapes(li).each()]
print(f"copied {len(copied)} shapes of {LAYER[0]}/{LAYER[1]} from {SRC_CELL} into {cell.name}: "
      + ", ".join(str(s.dbbox()) for s in copied))
