# ---
# title = "Move a component's shapes from one layer to another (layer mapping)"
# summary = "Remaps layers of a component (a copy) with remap_layers({old: new}) as (layer, datatype) pairs, recursive=True for its sub-cells, e.g. to move a device onto a foundry's layer numbers. Prints the layers before and after."
# kind = "sandbox"
# tags = ["remap layers", "layer map", "change layer", "layer mapping", "foundry layers", "convert layers"]
# apis = ["gdsfactory.Component.remap_layers", "gdsfactory.Component.copy"]
# [expect]
# files = ["remapped.gds"]
# cells = ["MMI_REMAPPED"]
# layers = ["10/0"]
# stdout = ["[(1, 0)] -> [(10, 0)]"]
# ---
import gdsfactory as gf

layer_map = {(1, 0): (10, 0)}     # (layer, datatype) old -> new
cell_name = "MMI_REMAPPED"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
c << gf.components.mmi1x2()
c.flatten()                                  # own the polygons so the map applies to this cell
before = sorted(c.layers)
c.remap_layers(layer_map, recursive=True)
c.write_gds("remapped.gds", with_metadata=False)

print(f"{cell_name}: {before} -> {sorted(c.layers)}")
