# ---
# title = "Parameter sweep laid out in a row with a text label under each device"
# summary = "Builds one device per parameter value (here straight waveguides of increasing length in um) and lays them out with gf.grid_with_text, which writes each device's index as a polygon label next to it. Use it for a labelled sweep on a test chip."
# kind = "sandbox"
# tags = ["sweep", "parameter sweep", "labels", "grid", "test structures", "variation", "text"]
# apis = ["gdsfactory.grid_with_text", "gdsfactory.components.straight"]
# [expect]
# files = ["length_sweep.gds"]
# cells = ["LENGTH_SWEEP"]
# layers = ["1/0"]
# stdout = ["3 devices", "lengths 10, 20, 30 um"]
# bbox = {"LENGTH_SWEEP" = [-15.0, 5.0, 170.0, 76.25]}
# ---
import gdsfactory as gf

lengths = [10, 20, 30]      # um, one straight per value
cell_name = "LENGTH_SWEEP"

gf.gpdk.PDK.activate()

devices = [gf.components.straight(length=L) for L in lengths]
sweep = gf.grid_with_text(devices, text_prefix="L", spacing=(10, 10), shape=(3, 1))
c = gf.Component(cell_name)
c << sweep
c.write_gds("length_sweep.gds", with_metadata=False)

print(f"{cell_name}: {len(devices)} devices, lengths {', '.join(str(L) for L in lengths)} um")
