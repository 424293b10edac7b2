# ---
# title = "Insert a directional coupler with a chosen gap into the open layout"
# summary = "Builds a directional coupler (gf.components.coupler) with the coupling gap and length in um, names the cell and writes it without metadata for pic-copilot to place in the open layout."
# kind = "new"
# tags = ["directional coupler", "coupler", "gap", "place", "insert", "open layout"]
# apis = ["gdsfactory.components.coupler", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["dc_new.gds"]
# cells = ["DC_G250_L30"]
# layers = ["1/0"]
# stdout = ["DC_G250_L30: 4 ports"]
# ---
import gdsfactory as gf

gap = 0.25        # um
length = 30.0     # um
cell_name = "DC_G250_L30"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.coupler(gap=gap, length=length)
c.add_ports(ref.ports)
c.write_gds("dc_new.gds", with_metadata=False)
print(f"{cell_name}: {len(c.ports)} ports, {c.xsize:.1f} x {c.ysize:.1f} um")
