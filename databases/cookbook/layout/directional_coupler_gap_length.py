# ---
# title = "Directional coupler with a chosen coupling gap and coupling length"
# summary = "Builds an evanescent directional coupler (two waveguides brought close with S-bends) with the gap between the waveguides and the straight coupling length in um, and writes it to GDS. The power split is set by gap and length; use an MMI when a fabrication-tolerant 50/50 split matters more."
# kind = "sandbox"
# tags = ["directional coupler", "coupler", "evanescent coupling", "gap", "coupling length", "splitter"]
# apis = ["gdsfactory.components.coupler", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["coupler.gds"]
# cells = ["DC_G300_L15"]
# layers = ["1/0"]
# bbox = {"DC_G300_L15" = [-10.0, -1.85, 25.0, 2.65]}
# stdout = ["gap 0.300 um", "length 15.0 um", "4 ports"]
# ---
import gdsfactory as gf

gap = 0.3          # um, edge-to-edge gap in the coupling section
length = 15.0      # um, straight coupling length
dx = 10.0          # um, length of the S-bends
dy = 4.0           # um, port pitch on each side
cell_name = "DC_G300_L15"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.coupler(gap=gap, length=length, dx=dx, dy=dy)
c.add_ports(ref.ports)
c.write_gds("coupler.gds", with_metadata=False)

print(f"{cell_name}: gap {gap:.3f} um, length {length:.1f} um, {len(c.ports)} ports")
