# ---
# title = "Extract only some layers of a component into a new cell"
# summary = "Makes a new component holding only the polygons of chosen layers with Component.extract(layers=[...]) (flattened), e.g. the heater metal of a tunable device to estimate its resistance or to check it alone. Names the result and writes it."
# kind = "sandbox"
# tags = ["extract", "layers", "keep layers", "isolate layer", "heater layer", "filter layers"]
# apis = ["gdsfactory.Component.extract", "gdsfactory.components.ring_single_heater"]
# [expect]
# files = ["heater_only.gds"]
# cells = ["HEATER_ONLY"]
# layers = ["47/0"]
# stdout = ["layers [(47, 0)]"]
# ---
import gdsfactory as gf

keep = [(47, 0)]        # HEATER layer
cell_name = "HEATER_ONLY"

gf.gpdk.PDK.activate()

device = gf.components.ring_single_heater(radius=10)
only = device.extract(layers=keep)
c = gf.Component(cell_name)
c << only
c.write_gds("heater_only.gds", with_metadata=False)

print(f"{cell_name}: layers {sorted(c.layers)} of {len(device.layers)} in the device, area {only.area(layer=keep[0]):.2f} um2")
