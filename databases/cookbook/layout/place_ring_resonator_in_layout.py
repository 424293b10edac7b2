# ---
# title = "Create a ring resonator with gdsfactory and add it to my KLayout layout"
# summary = "Builds an all-pass ring (ring_single) with the radius and the coupling gap in um and writes it as a named cell in a GDS without metadata, which pic-copilot inserts under the active cell of the open layout."
# kind = "new"
# tags = ["ring", "ring resonator", "place", "insert", "open layout", "microring", "gdsfactory"]
# apis = ["gdsfactory.components.ring_single", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["ring_new.gds"]
# cells = ["RING_R15"]
# layers = ["1/0"]
# bbox = {"RING_R15" = [-22.0, -0.25, 18.0, 31.53]}
# stdout = ["RING_R15: radius 15.0 um, gap 0.18 um"]
# ---
import gdsfactory as gf

radius = 15.0     # um
gap = 0.18        # um
cell_name = "RING_R15"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.ring_single(radius=radius, gap=gap)
c.add_ports(ref.ports)
c.write_gds("ring_new.gds", with_metadata=False)
print(f"{cell_name}: radius {radius} um, gap {gap} um")
