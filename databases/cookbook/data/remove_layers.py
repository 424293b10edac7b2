# ---
# title = "Remove given layers (e.g. labels and outline) from a layout file"
# summary = "Reads a layout, deletes the layers listed in REMOVE from every cell (hierarchy kept) and writes cleaned.gds. Layers that are not in the file are reported and skipped. The opposite of keep_only_layers."
# kind = "sandbox"
# tags = ["remove layer", "delete layer", "strip labels", "drop layer", "clean layout", "gds"]
# apis = ["pya.Layout.find_layer", "pya.Layout.delete_layer", "pya.Layout.write"]
# fixture = "data_chip"
# [expect]
# files = ["cleaned.gds"]
# cells = ["TOP", "PAD"]
# layers = ["1/0", "3/0", "47/0", "49/0"]
# stdout = ["removed 2 layers", "6 shapes in the cells"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "cleaned.gds"
REMOVE = [(66, 0), (99, 0), (200, 0)]    # labels, chip outline, and a layer that may not exist

layout = db.Layout()
layout.read(INPUT)

removed, shapes = 0, 0
for layer, datatype in REMOVE:
    li = layout.find_layer(layer, datatype)    # None when the file has no such layer
    if li is None:
        print(f"layer {layer}/{datatype} not in {INPUT}, skipped")
        continue
    shapes += sum(c.shapes(li).size() for c in layout.each_cell())
    layout.delete_layer(li)
    removed += 1

layout.write(OUTPUT)
print(f"removed {removed} layers ({shapes} shapes in the cells); wrote {OUTPUT}")
