# ---
# title = "Remap layer numbers of a layout (move shapes from one layer/datatype to another)"
# summary = "Reads a layout and moves all shapes of each source layer to its target layer in every cell, following a mapping {(layer, datatype): (new_layer, new_datatype)}; a target that already exists receives the shapes in addition to its own. Writes remapped.gds. Use it to convert a design to another PDK's layer table."
# kind = "sandbox"
# tags = ["layer map", "remap layers", "renumber layers", "change layer", "layer conversion", "pdk migration", "gds"]
# apis = ["pya.Layout.find_layer", "pya.Layout.layer", "pya.Layout.move_layer", "pya.Layout.delete_layer", "pya.Layout.write"]
# fixture = "data_chip"
# [expect]
# files = ["remapped.gds"]
# cells = ["TOP", "MMI1X2"]
# layers = ["101/0", "103/0", "47/0"]
# stdout = ["1/0 -> 101/0: 25 shapes", "3/0 -> 103/0: 3 shapes"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "remapped.gds"
MAPPING = {(1, 0): (101, 0),     # waveguide core
           (3, 0): (103, 0)}     # slab

layout = db.Layout()
layout.read(INPUT)

for (l, d), (nl, nd) in MAPPING.items():
    src = layout.find_layer(l, d)
    if src is None:
        print(f"{l}/{d} not in {INPUT}, skipped")
        continue
    n = sum(c.shapes(src).size() for c in layout.each_cell())
    dst = layout.layer(nl, nd)         # finds or creates the target layer
    layout.move_layer(src, dst)        # moves the shapes in every cell
    layout.delete_layer(src)           # drop the now empty source layer
    print(f"{l}/{d} -> {nl}/{nd}: {n} shapes")

layout.write(OUTPUT)
print(f"wrote {OUTPUT}")
