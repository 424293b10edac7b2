# ---
# title = "Insert an Euler bend of a given radius into the open layout"
# summary = "Builds a 90-degree (or any angle) Euler waveguide bend with gdsfactory, radius in um, writes it as a named cell without metadata for pic-copilot to place in the layout open in KLayout."
# kind = "new"
# tags = ["bend", "euler", "place", "insert", "open layout", "90 degree", "gdsfactory"]
# apis = ["gdsfactory.components.bend_euler", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["bend_new.gds"]
# cells = ["BEND_R25"]
# layers = ["1/0"]
# bbox = {"BEND_R25" = [0.0, -0.25, 25.25, 25.0]}
# stdout = ["BEND_R25: 90 deg, radius 25.0 um"]
# ---
import gdsfactory as gf

radius = 25.0     # um
angle = 90        # degrees
cell_name = "BEND_R25"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.bend_euler(radius=radius, angle=angle)
c.add_ports(ref.ports)
c.write_gds("bend_new.gds", with_metadata=False)
print(f"{cell_name}: {angle} deg, radius {radius} um")
