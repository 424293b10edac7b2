# ---
# title = "Export a component's port table (name, position, width, orientation) to CSV"
# summary = "Writes every port of a component to a CSV table with the columns name, x, y, width, orientation, port_type (positions and widths in um, orientation in degrees), read from the component itself, and also saves the GDS. Use it to hand port coordinates to a test setup or another tool."
# kind = "sandbox"
# tags = ["ports", "port table", "csv", "port positions", "coordinates", "export ports", "pinout"]
# apis = ["gdsfactory.Component.ports", "gdsfactory.components.mmi2x2", "gdsfactory.Port.center", "gdsfactory.Port.orientation"]
# [expect]
# files = ["mmi2x2_ports.csv", "mmi2x2.gds"]
# cells = ["MMI2X2_PORTS"]
# csv_columns = {"mmi2x2_ports.csv" = ["name", "x", "y", "width", "orientation", "port_type"]}
# csv_rows = {"mmi2x2_ports.csv" = 4}
# stdout = ["4 ports written"]
# ---
import csv

import gdsfactory as gf

cell_name = "MMI2X2_PORTS"
csv_file = "mmi2x2_ports.csv"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.mmi2x2()
c.add_ports(ref.ports)
c.write_gds("mmi2x2.gds", with_metadata=False)

with open(csv_file, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["name", "x", "y", "width", "orientation", "port_type"])
    for p in c.ports:
        x, y = p.center                     # um
        w.writerow([p.name, round(x, 3), round(y, 3), p.width, p.orientation, p.port_type])

print(f"{cell_name}: {len(c.ports)} ports written to {csv_file}")
