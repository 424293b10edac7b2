# ---
# title = "Add-drop ring filter with two bus waveguides"
# summary = "Builds a double-bus ring resonator (ring_double): input/through on the bottom bus, add/drop on the top bus; ring radius and coupling gap in um. Use it for a channel drop filter or WDM demultiplexer; ring_single has only one bus."
# kind = "sandbox"
# tags = ["ring", "add-drop", "drop port", "double bus", "wdm filter", "ring resonator", "channel filter"]
# apis = ["gdsfactory.components.ring_double", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["ring_double.gds"]
# cells = ["RING_ADD_DROP"]
# layers = ["1/0"]
# bbox = {"RING_ADD_DROP" = [-18.01, -0.25, 18.0, 31.76]}
# stdout = ["4 ports", "drop bus at y = 31.51 um"]
# ---
import gdsfactory as gf

radius = 15.0      # um
gap = 0.25         # um, same gap to both buses
cell_name = "RING_ADD_DROP"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.ring_double(radius=radius, gap=gap)
c.add_ports(ref.ports)
c.write_gds("ring_double.gds", with_metadata=False)

top_y = max(p.center[1] for p in c.ports)   # o3/o4 sit on the upper (drop) bus
print(f"{cell_name}: {len(c.ports)} ports, drop bus at y = {top_y:.2f} um")
