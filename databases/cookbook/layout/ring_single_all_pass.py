# ---
# title = "All-pass ring resonator with a chosen radius and coupling gap"
# summary = "Builds the generic PDK's single-bus ring (ring_single, an all-pass / notch filter) with the ring radius and the bus-ring gap in um, names the top cell and writes GDS without metadata. For an add-drop filter with a second bus use ring_double."
# kind = "sandbox"
# tags = ["ring", "ring resonator", "all-pass", "notch filter", "microring", "radius", "gap"]
# apis = ["gdsfactory.components.ring_single", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["ring.gds"]
# cells = ["RING_R10_G200"]
# layers = ["1/0"]
# bbox = {"RING_R10_G200" = [-17.0, -0.25, 13.0, 21.55]}
# stdout = ["radius 10.0 um", "gap 0.200 um", "ports o1, o2"]
# ---
import gdsfactory as gf

radius = 10.0      # um
gap = 0.2          # um, bus-to-ring gap
length_x = 4.0     # um, straight length of the coupling section
cell_name = "RING_R10_G200"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.ring_single(radius=radius, gap=gap, length_x=length_x)
c.add_ports(ref.ports)
c.write_gds("ring.gds", with_metadata=False)

ports = ", ".join(sorted(p.name for p in c.ports))
print(f"{cell_name}: radius {radius:.1f} um, gap {gap:.3f} um, ports {ports}, size {c.xsize:.2f} x {c.ysize:.2f} um")
