# ---
# title = "Place an add-drop ring filter made with gdsfactory in the open layout"
# summary = "Builds a double-bus ring (ring_double) with the radius and gap in um, names the cell and writes it without metadata; pic-copilot inserts it under the active cell."
# kind = "new"
# tags = ["ring", "add-drop", "drop filter", "place", "insert", "open layout", "double bus"]
# apis = ["gdsfactory.components.ring_double", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["ring_double_new.gds"]
# cells = ["RING_AD_R8"]
# layers = ["1/0"]
# stdout = ["RING_AD_R8: 4 ports"]
# ---
import gdsfactory as gf

radius = 8.0      # um
gap = 0.2         # um
cell_name = "RING_AD_R8"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.ring_double(radius=radius, gap=gap)
c.add_ports(ref.ports)
c.write_gds("ring_double_new.gds", with_metadata=False)
print(f"{cell_name}: {len(c.ports)} ports")
