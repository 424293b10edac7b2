# ---
# title = "Keep only some layers of a layout and delete all others"
# summary = "Reads a layout, deletes every layer that is not in the KEEP list (shapes of all cells, hierarchy untouched) and writes the result to kept_layers.gds. Use it to hand over only the waveguide layers of a design, or to strip everything but the layers a tool needs."
# kind = "sandbox"
# tags = ["filter layers", "keep layers", "delete layers", "strip layers", "layer selection", "gds"]
# apis = ["pya.Layout.layer_indexes", "pya.Layout.get_info", "pya.Layout.delete_layer", "pya.Layout.write"]
# fixture = "data_chip"
# [expect]
# bbox = {"TOP" = [-15.0, -6.0, 400.25, 387.0]}
# files = ["kept_layers.gds"]
# cells = ["TOP", "MMI1X2", "GC"]
# layers = ["1/0", "3/0"]
# stdout = ["kept 2 layers", "removed 4 layers"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "kept_layers.gds"
KEEP = [(1, 0), (3, 0)]      # (layer, datatype) to keep

layout = db.Layout()
layout.read(INPUT)

removed = []
for li in list(layout.layer_indexes()):      # copy: we delete while iterating
    info = layout.get_info(li)
    if (info.layer, info.datatype) not in KEEP:
        layout.delete_layer(li)              # removes the layer and its shapes in every cell
        removed.append(f"{info.layer}/{info.datatype}")

layout.write(OUTPUT)
print(f"kept {len(layout.layer_indexes())} layers, removed {len(removed)} layers ({', '.join(removed)}); wrote {OUTPUT}")
