# ---
# title = "Convert a GDS file to OASIS (or OASIS to GDS), keeping hierarchy and texts"
# summary = "Reads a layout file and writes it in the other format; the output format follows the file extension (.oas/.gds). Cells, instances, arrays, layers and texts are preserved. Prints the cell, layer and text counts of the original and of the re-read output so the conversion can be trusted. Swap INPUT/OUTPUT names to go from OASIS to GDS."
# kind = "sandbox"
# tags = ["convert", "oasis", "gds", "gds2", "oas", "format conversion", "export", "compress"]
# apis = ["pya.Layout.read", "pya.Layout.write", "pya.Layout.each_cell", "pya.Cell.begin_shapes_rec"]
# fixture = "data_chip"
# [expect]
# files = ["out.oas"]
# cells = ["TOP", "GC", "PAD", "HEATER", "STRAIGHT"]
# layers = ["1/0", "66/0"]
# stdout = ["in.gds: 8 cells, 6 layers, 12 texts", "out.oas: 8 cells, 6 layers, 12 texts"]
# ---
import os

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "out.oas"       # .oas -> OASIS, .gds -> GDS2


def stats(path):
    """(cells, layers, texts placed under the top cell) of a layout file."""
    ly = db.Layout()
    ly.read(path)
    top = ly.top_cell()
    texts = 0
    for li in ly.layer_indexes():
        it = top.begin_shapes_rec(li)
        while not it.at_end():
            texts += it.shape().is_text()
            it.next()
    return len(list(ly.each_cell())), len(ly.layer_indexes()), texts


layout = db.Layout()
layout.read(INPUT)
layout.write(OUTPUT)      # format chosen from the extension

for path in (INPUT, OUTPUT):
    cells, layers, texts = stats(path)
    print(f"{path}: {cells} cells, {layers} layers, {texts} texts, {os.path.getsize(path)} bytes")
