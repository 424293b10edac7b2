# ---
# title = "Create two splitters joined by a waveguide route and place them in the open layout"
# summary = "Builds a small circuit with gdsfactory (two 1x2 MMIs, one output routed to the other's input with route_single), names the cell and writes it without metadata; pic-copilot places the whole circuit in the open layout as one cell."
# kind = "new"
# tags = ["circuit", "route", "splitters", "place", "insert", "open layout", "connected devices"]
# apis = ["gdsfactory.routing.route_single", "gdsfactory.components.mmi1x2", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["circuit_new.gds"]
# cells = ["SPLITTER_TREE_2"]
# layers = ["1/0"]
# stdout = ["SPLITTER_TREE_2: route 57.1 um"]
# ---
import gdsfactory as gf

second_at = (60.0, 30.0)   # um
cell_name = "SPLITTER_TREE_2"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
a = c << gf.components.mmi1x2()
b = c << gf.components.mmi1x2()
b.move(second_at)
route = gf.routing.route_single(c, a.ports["o2"], b.ports["o1"], cross_section="strip")
c.write_gds("circuit_new.gds", with_metadata=False)
print(f"{cell_name}: route {route.length * c.kcl.dbu:.1f} um")
