# ---
# title = "Add a row of probe pads with a given pitch to the open layout"
# summary = "Builds a row of identical metal pads (gf.components.pad_array: count, pitch in um, pad size), names the cell and writes it without metadata for pic-copilot to place in the open layout."
# kind = "new"
# tags = ["pad array", "probe pads", "pad row", "pitch", "place", "insert", "open layout"]
# apis = ["gdsfactory.components.pad_array", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["pads_new.gds"]
# cells = ["PADS_6x100"]
# layers = ["49/0"]
# bbox = {"PADS_6x100" = [-40.0, -40.0, 540.0, 40.0]}
# stdout = ["PADS_6x100: 6 pads"]
# ---
import gdsfactory as gf

count = 6
pitch = 100.0           # um
pad_size = (80.0, 80.0) # um
cell_name = "PADS_6x100"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.pad_array(columns=count, column_pitch=pitch, size=pad_size)
c.add_ports(ref.ports)
c.write_gds("pads_new.gds", with_metadata=False)
print(f"{cell_name}: {len(c.ports)} pads")
