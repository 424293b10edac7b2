# ---
# title = "1x2 MMI power splitter with chosen body length, width and output gap"
# summary = "Builds a 1x2 multimode-interference splitter (mmi1x2) with the MMI body length and width and the gap between the two output tapers in um, and writes it to GDS with its port positions. Use mmi2x2 for a 2x2 coupler/combiner."
# kind = "sandbox"
# tags = ["mmi", "1x2", "splitter", "y-splitter", "power divider", "multimode interference", "3 dB"]
# apis = ["gdsfactory.components.mmi1x2", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["mmi1x2.gds"]
# cells = ["MMI1X2_L20"]
# layers = ["1/0"]
# bbox = {"MMI1X2_L20" = [-10.0, -3.0, 30.0, 3.0]}
# stdout = ["o1 (-10.00, 0.00)", "o2 (30.00, 1.00)", "o3 (30.00, -1.00)"]
# ---
import gdsfactory as gf

length_mmi = 20.0    # um, MMI body length
width_mmi = 6.0      # um, MMI body width
gap_mmi = 1.0        # um, gap between the output tapers
cell_name = "MMI1X2_L20"

gf.gpdk.PDK.activate()

mmi = gf.components.mmi1x2(length_mmi=length_mmi, width_mmi=width_mmi, gap_mmi=gap_mmi)
c = gf.Component(cell_name)
ref = c << mmi
c.add_ports(ref.ports)
c.write_gds("mmi1x2.gds", with_metadata=False)

print(f"{cell_name}: " + ", ".join(f"{p.name} ({p.center[0]:.2f}, {p.center[1]:.2f})" for p in c.ports))
