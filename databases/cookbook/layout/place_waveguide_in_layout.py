# ---
# title = "Draw a gdsfactory waveguide of a given length and width into the open layout"
# summary = "Builds a straight strip waveguide with gdsfactory (length and width in um, layer WG 1/0, ports o1/o2), writes it as a named cell without metadata, and lets pic-copilot place it under the active cell. For a plain box in the open layout a pya edit is simpler."
# kind = "new"
# tags = ["waveguide", "straight", "place", "insert", "open layout", "strip", "gdsfactory"]
# apis = ["gdsfactory.components.straight", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["wg_new.gds"]
# cells = ["WG_L200_W045"]
# layers = ["1/0"]
# bbox = {"WG_L200_W045" = [0.0, -0.225, 200.0, 0.225]}
# stdout = ["WG_L200_W045: 200.0 um long, 0.45 um wide"]
# ---
import gdsfactory as gf

length = 200.0    # um
width = 0.45      # um
cell_name = "WG_L200_W045"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.straight(length=length, width=width)
c.add_ports(ref.ports)
c.write_gds("wg_new.gds", with_metadata=False)
print(f"{cell_name}: {c.xsize:.1f} um long, {width} um wide")
