# ---
# title = "Row of bond pads with a chosen count and pitch"
# summary = "Builds a row (or grid) of identical metal pads with pad_array: number of columns and rows, pad-to-pad pitch in um and the pad size; ports e11, e12 ... are the pads' edges facing the chosen direction. Use it for probe-card or wire-bond pad rows."
# kind = "sandbox"
# tags = ["pad array", "bond pads", "probe pads", "pad row", "pitch", "electrical"]
# apis = ["gdsfactory.components.pad_array", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["pad_row.gds"]
# cells = ["PAD_ROW_4"]
# layers = ["49/0"]
# bbox = {"PAD_ROW_4" = [-50.0, -50.0, 410.0, 50.0]}
# stdout = ["4 pads", "pitch 120.0 um"]
# ---
import gdsfactory as gf

columns = 4               # pads in the row
rows = 1
column_pitch = 120.0      # um, center-to-center
pad_size = (100.0, 100.0) # um
cell_name = "PAD_ROW_4"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.pad_array(columns=columns, rows=rows, column_pitch=column_pitch, size=pad_size)
c.add_ports(ref.ports)
c.write_gds("pad_row.gds", with_metadata=False)

xs = sorted(p.center[0] for p in c.ports)
print(f"{cell_name}: {len(c.ports)} pads, pitch {xs[1] - xs[0]:.1f} um")
