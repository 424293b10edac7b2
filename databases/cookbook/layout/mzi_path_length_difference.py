# ---
# title = "Unbalanced Mach-Zehnder interferometer with a chosen arm length difference"
# summary = "Builds an MZI (mzi) from two 1x2 MMIs with a path length difference delta_length in um between the arms, which sets the free spectral range, and writes it to GDS. Use mzi2x2_2x2 for a 2x2 MZI with MMI2x2 couplers."
# kind = "sandbox"
# tags = ["mzi", "mach-zehnder", "interferometer", "delta length", "unbalanced", "fsr", "filter"]
# apis = ["gdsfactory.components.mzi", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["mzi.gds"]
# cells = ["MZI_DL40"]
# layers = ["1/0"]
# bbox = {"MZI_DL40" = [-10.0, -42.875, 81.1, 22.875]}
# stdout = ["delta_length 40.0 um", "ports o1, o2"]
# ---
import gdsfactory as gf

delta_length = 40.0   # um, extra length of the long arm
length_x = 0.1        # um, horizontal straight of the arms
length_y = 2.0        # um, vertical straight of the arms
cell_name = "MZI_DL40"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.mzi(delta_length=delta_length, length_x=length_x, length_y=length_y)
c.add_ports(ref.ports)
c.write_gds("mzi.gds", with_metadata=False)

print(f"{cell_name}: delta_length {delta_length:.1f} um, ports {', '.join(p.name for p in c.ports)}")
