# ---
# title = "Duplicate a layer's shapes onto another layer (e.g. a cladding or a mask copy)"
# summary = "Copies every shape of one layer onto another layer of the same component with copy_layers({source: target}) (both (layer, datatype)), keeping the original, e.g. to derive a cladding-open or a dummy-exclusion layer from the waveguide core."
# kind = "sandbox"
# tags = ["copy layer", "duplicate layer", "derived layer", "cladding", "mask layer", "layer copy"]
# apis = ["gdsfactory.Component.copy_layers", "gdsfactory.Component.copy"]
# [expect]
# files = ["wg_with_copy.gds"]
# cells = ["WG_LAYER_COPY"]
# layers = ["1/0", "111/0"]
# stdout = ["1/0 36.25 um2, 111/0 36.25 um2"]
# ---
import gdsfactory as gf

source, target = (1, 0), (111, 0)
cell_name = "WG_LAYER_COPY"

gf.gpdk.PDK.activate()

c = gf.components.mmi1x2().copy()
c.name = cell_name
c.copy_layers(layer_map={source: target}, recursive=True)
c.write_gds("wg_with_copy.gds", with_metadata=False)

print(f"{cell_name}: 1/0 {c.area(layer=source):.2f} um2, 111/0 {c.area(layer=target):.2f} um2")
