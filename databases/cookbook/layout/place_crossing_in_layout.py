# ---
# title = "Add a waveguide crossing to the open layout"
# summary = "Builds the generic PDK's four-port waveguide crossing (gf.components.crossing), names the cell and writes it without metadata for pic-copilot to place in the open KLayout layout."
# kind = "new"
# tags = ["crossing", "intersection", "place", "insert", "open layout", "four port"]
# apis = ["gdsfactory.components.crossing", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["crossing_new.gds"]
# cells = ["XING_NEW"]
# layers = ["1/0"]
# bbox = {"XING_NEW" = [-4.0, -4.0, 4.0, 4.0]}
# stdout = ["XING_NEW: 4 ports"]
# ---
import gdsfactory as gf

cell_name = "XING_NEW"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.crossing()
c.add_ports(ref.ports)
c.write_gds("crossing_new.gds", with_metadata=False)
print(f"{cell_name}: {len(c.ports)} ports")
