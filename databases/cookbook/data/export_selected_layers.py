# ---
# title = "Write a copy of a layout that contains only selected layers (original untouched)"
# summary = "Reads a layout and saves only the chosen layers to a new file using SaveLayoutOptions (deselect all layers, add the wanted ones); cells and hierarchy are kept, the layout in memory is not modified. Use it to export e.g. only the metal layers for a foundry or a colleague."
# kind = "sandbox"
# tags = ["export layers", "save selected layers", "layer subset", "SaveLayoutOptions", "write gds", "filter"]
# apis = ["pya.SaveLayoutOptions", "pya.SaveLayoutOptions.deselect_all_layers", "pya.SaveLayoutOptions.add_layer", "pya.Layout.write", "pya.LayerInfo"]
# fixture = "data_chip"
# [expect]
# files = ["metal.gds"]
# cells = ["TOP", "PAD", "HEATER"]
# layers = ["47/0", "49/0"]
# stdout = ["2 of 6 layers", "layers in metal.gds: 47/0, 49/0"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "metal.gds"
LAYERS = [(47, 0), (49, 0)]      # heater and pad metal

layout = db.Layout()
layout.read(INPUT)

opts = db.SaveLayoutOptions()
opts.deselect_all_layers()                      # start from no layers ...
for layer, datatype in LAYERS:
    li = layout.find_layer(layer, datatype)
    if li is not None:
        opts.add_layer(li, db.LayerInfo(layer, datatype))   # ... and add the wanted ones
layout.write(OUTPUT, opts)

# read back to confirm what the file holds
check = db.Layout()
check.read(OUTPUT)
names = sorted(f"{check.get_info(li).layer}/{check.get_info(li).datatype}" for li in check.layer_indexes())
print(f"wrote {OUTPUT} with {len(names)} of {len(layout.layer_indexes())} layers; layers in {OUTPUT}: {', '.join(names)}")
