# ---
# title = "Export a component's port table (name, position, width, orientation, type) to CSV"
# summary = "Writes every port of a component to a CSV table with the columns name, x, y, width, orientation, port_type (positions and widths in um, orientation in degrees), read from the component itself rather than typed in; here a heater phase shifter with optical and electrical ports. Use it to hand port coordinates to a test setup or another tool."
# kind = "sandbox"
# tags = ["ports", "port table", "csv", "port positions", "coordinates", "export ports", "pinout"]
# apis = ["gdsfactory.Component.ports", "gdsfactory.components.straight_heater_metal", "gdsfactory.Port.center", "gdsfactory.Port.orientation"]
# [expect]
# files = ["heater_ports.csv"]
# csv_columns = {"heater_ports.csv" = ["name", "x", "y", "width", "orientation", "port_type"]}
# csv_rows = {"heater_ports.csv" = 10}
# stdout = ["10 ports (2 optical, 8 electrical)"]
# ---
import csv

import gdsfactory as gf

heater_length = 150.0        # um
table = "heater_ports.csv"

gf.gpdk.PDK.activate()

device = gf.components.straight_heater_metal(length=heater_length)
with open(table, "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(["name", "x", "y", "width", "orientation", "port_type"])
    for port in device.ports:
        px, py = port.center                  # um
        writer.writerow([port.name, round(px, 3), round(py, 3), port.width, port.orientation, port.port_type])

kinds = [port.port_type for port in device.ports]
print(f"{len(kinds)} ports ({kinds.count('optical')} optical, {kinds.count('electrical')} electrical) -> {table}")
