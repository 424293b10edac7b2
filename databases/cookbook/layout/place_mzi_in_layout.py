# ---
# title = "Create a Mach-Zehnder interferometer and place it in the open layout"
# summary = "Builds an unbalanced MZI with a path length difference in um between its arms (gf.components.mzi), names the cell and writes it without metadata for pic-copilot to insert under the active cell."
# kind = "new"
# tags = ["mzi", "mach-zehnder", "interferometer", "place", "insert", "open layout"]
# apis = ["gdsfactory.components.mzi", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["mzi_new.gds"]
# cells = ["MZI_DL100"]
# layers = ["1/0"]
# stdout = ["MZI_DL100: delta 100.0 um"]
# ---
import gdsfactory as gf

delta_length = 100.0   # um
cell_name = "MZI_DL100"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.mzi(delta_length=delta_length)
c.add_ports(ref.ports)
c.write_gds("mzi_new.gds", with_metadata=False)
print(f"{cell_name}: delta {delta_length} um, {c.xsize:.1f} x {c.ysize:.1f} um")
