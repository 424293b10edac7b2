# ---
# title = "Read only some layers of a big GDS/OASIS file (layer map on load), optionally renumbered"
# summary = "Loads a layout with LoadLayoutOptions and a LayerMap so that only the listed layers are read (all others are skipped while reading, which saves memory and time on large files); a map entry can also give the layer a new number. Reports the layers and placed shape counts that were loaded and writes them to loaded.gds."
# kind = "sandbox"
# tags = ["layer map", "read selected layers", "LoadLayoutOptions", "partial read", "large file", "import layers", "renumber on load"]
# apis = ["pya.LoadLayoutOptions", "pya.LoadLayoutOptions.layer_map", "pya.LoadLayoutOptions.create_other_layers", "pya.LayerMap", "pya.LayerMap.map", "pya.Layout.read"]
# fixture = "data_chip"
# [expect]
# files = ["loaded.gds"]
# layers = ["1/0", "149/0"]
# stdout = ["loaded 2 layers", "1/0: 79 shapes", "149/0: 8 shapes"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "loaded.gds"
# (layer, datatype) in the file -> (layer, datatype) in memory
READ = {(1, 0): (1, 0),
        (49, 0): (149, 0)}

lmap = db.LayerMap()
for i, ((l, d), (nl, nd)) in enumerate(READ.items()):
    lmap.map(db.LayerInfo(l, d), i, db.LayerInfo(nl, nd))   # source layer -> logical layer i, renamed
opts = db.LoadLayoutOptions()
opts.layer_map = lmap
opts.create_other_layers = False          # skip every layer that is not in the map

layout = db.Layout()
layout.read(INPUT, opts)
top = layout.top_cell()
for li in layout.layer_indexes():
    info = layout.get_info(li)
    n = 0
    it = top.begin_shapes_rec(li)
    while not it.at_end():
        n += 1
        it.next()
    print(f"{info.layer}/{info.datatype}: {n} shapes")
layout.write(OUTPUT)
print(f"loaded {len(layout.layer_indexes())} layers of {INPUT}; wrote {OUTPUT}")
