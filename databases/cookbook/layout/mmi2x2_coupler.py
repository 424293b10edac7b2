# ---
# title = "2x2 MMI coupler with custom body length and width"
# summary = "Builds a 2x2 multimode-interference coupler (mmi2x2): two inputs (o1, o2) on the west, two outputs (o3, o4) on the east; body length/width and taper gap in um. Use it as the 3 dB coupler of a balanced MZI or a 2x2 switch."
# kind = "sandbox"
# tags = ["mmi", "2x2", "coupler", "combiner", "3 dB coupler", "multimode interference"]
# apis = ["gdsfactory.components.mmi2x2", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["mmi2x2.gds"]
# cells = ["MMI2X2_L30"]
# layers = ["1/0"]
# bbox = {"MMI2X2_L30" = [-10.0, -2.5, 40.0, 2.5]}
# stdout = ["4 ports", "west o1 o2", "east o3 o4"]
# ---
import gdsfactory as gf

length_mmi = 30.0    # um
width_mmi = 5.0      # um
gap_mmi = 0.5        # um, gap between the tapers on each side
cell_name = "MMI2X2_L30"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.mmi2x2(length_mmi=length_mmi, width_mmi=width_mmi, gap_mmi=gap_mmi)
c.add_ports(ref.ports)
c.write_gds("mmi2x2.gds", with_metadata=False)

west = sorted(p.name for p in c.ports if p.orientation == 180)
east = sorted(p.name for p in c.ports if p.orientation == 0)
print(f"{cell_name}: {len(c.ports)} ports, west {' '.join(west)}, east {' '.join(east)}")
