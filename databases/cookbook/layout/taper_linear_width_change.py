# ---
# title = "Linear taper between two waveguide widths"
# summary = "Builds a linear taper that widens a waveguide from width1 to width2 (um) over a length (um), e.g. from a 0.5 um wire to a 3 um multimode section or a grating coupler, and writes it to GDS with both port widths printed."
# kind = "sandbox"
# tags = ["taper", "width transition", "adiabatic taper", "spot size", "linear taper"]
# apis = ["gdsfactory.components.taper", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["taper.gds"]
# cells = ["TAPER_05_3"]
# layers = ["1/0"]
# bbox = {"TAPER_05_3" = [0.0, -1.5, 20.0, 1.5]}
# stdout = ["o1 width 0.5 um", "o2 width 3.0 um"]
# ---
import gdsfactory as gf

length = 20.0      # um
width1 = 0.5       # um, input width (port o1)
width2 = 3.0       # um, output width (port o2)
cell_name = "TAPER_05_3"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.taper(length=length, width1=width1, width2=width2)
c.add_ports(ref.ports)
c.write_gds("taper.gds", with_metadata=False)

print(f"{cell_name}: " + ", ".join(f"{p.name} width {p.width} um" for p in c.ports))
