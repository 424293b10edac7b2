# ---
# title = "Create a waveguide taper with gdsfactory for the open layout"
# summary = "Builds a linear taper from one waveguide width to another (um) over a length in um, names the cell and writes it without metadata; pic-copilot places it in the open KLayout layout."
# kind = "new"
# tags = ["taper", "width change", "place", "insert", "open layout", "gdsfactory"]
# apis = ["gdsfactory.components.taper", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["taper_new.gds"]
# cells = ["TAPER_1_TO_4"]
# layers = ["1/0"]
# bbox = {"TAPER_1_TO_4" = [0.0, -2.0, 50.0, 2.0]}
# stdout = ["TAPER_1_TO_4: 1.0 -> 4.0 um over 50.0 um"]
# ---
import gdsfactory as gf

length = 50.0       # um
width_in = 1.0      # um
width_out = 4.0     # um
cell_name = "TAPER_1_TO_4"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.taper(length=length, width1=width_in, width2=width_out)
c.add_ports(ref.ports)
c.write_gds("taper_new.gds", with_metadata=False)
print(f"{cell_name}: {width_in} -> {width_out} um over {length} um")
