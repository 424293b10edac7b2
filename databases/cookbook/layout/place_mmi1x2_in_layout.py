# ---
# title = "Create a 1x2 MMI splitter with gdsfactory and place it in the open layout"
# summary = "Builds the generic PDK's 1x2 MMI splitter with a chosen MMI length and width in um, names its cell and writes it to GDS without metadata; pic-copilot then places that cell in the layout open in KLayout. For an edit of existing shapes use a pya edit recipe."
# kind = "new"
# tags = ["mmi", "splitter", "place", "insert component", "open layout", "gdsfactory", "1x2"]
# apis = ["gdsfactory.components.mmi1x2", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["mmi1x2_new.gds"]
# cells = ["MMI1X2_SPLIT"]
# layers = ["1/0"]
# bbox = {"MMI1X2_SPLIT" = [-10.0, -2.0, 22.0, 2.0]}
# stdout = ["MMI1X2_SPLIT: 3 ports"]
# ---
import gdsfactory as gf

length_mmi = 12.0    # um
width_mmi = 4.0      # um
cell_name = "MMI1X2_SPLIT"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.mmi1x2(length_mmi=length_mmi, width_mmi=width_mmi)
c.add_ports(ref.ports)
c.write_gds("mmi1x2_new.gds", with_metadata=False)   # KLayout 0.28.5 can read it
print(f"{cell_name}: {len(c.ports)} ports, {c.xsize:.1f} x {c.ysize:.1f} um")
