# ---
# title = "Ring resonator built in a rib waveguide cross-section"
# summary = "Passes a rib cross-section (core width in um, slab on 3/0) to ring_single so the whole ring and bus are rib waveguides; radius and gap in um. Shows how any component with a cross_section argument takes a custom waveguide."
# kind = "sandbox"
# tags = ["ring", "rib", "cross_section argument", "ring resonator", "slab", "custom waveguide"]
# apis = ["gdsfactory.cross_section.rib", "gdsfactory.components.ring_single"]
# [expect]
# files = ["ring_rib.gds"]
# cells = ["RING_RIB_R20"]
# layers = ["1/0", "3/0"]
# bbox = {"RING_RIB_R20" = [-27.3, -3.3, 23.3, 44.8]}
# stdout = ["port width 0.6 um"]
# ---
import gdsfactory as gf

radius = 20.0       # um
gap = 0.3           # um
core_width = 0.6    # um
cell_name = "RING_RIB_R20"

gf.gpdk.PDK.activate()

xs = gf.cross_section.rib(width=core_width)
c = gf.Component(cell_name)
ref = c << gf.components.ring_single(radius=radius, gap=gap, cross_section=xs)
c.add_ports(ref.ports)
c.write_gds("ring_rib.gds", with_metadata=False)

print(f"{cell_name}: rib ring, port width {c.ports['o1'].width} um, layers {c.layers}")
