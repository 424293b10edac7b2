# ---
# title = "Port table of a gdsfactory component to CSV (name, center x/y, orientation, width, layer)"
# summary = "Builds a generic-PDK component with chosen parameters (here an MMI 1x2 with a 3 um x 12 um body) and writes ports.csv with one row per port: name, x and y of the port center in um, orientation in degrees, width in um, layer as 'L/D' and port type. Use it to hand port positions to routing or test scripts."
# kind = "sandbox"
# tags = ["ports", "port table", "port positions", "pins", "csv", "orientation", "width", "gdsfactory", "mmi"]
# apis = ["gdsfactory.components.mmi1x2", "gdsfactory.Component.ports", "gdsfactory.Port.center", "gdsfactory.Port.orientation", "gdsfactory.Port.width", "gdsfactory.Port.layer"]
# fixture = ""
# [expect]
# csv_rows = {"ports.csv" = 3}
# files = ["ports.csv"]
# csv_columns = {"ports.csv" = ["name", "x", "y", "orientation", "width", "layer", "port_type"]}
# stdout = ["3 ports", "o1: (-10.000, 0.000) 180 deg", "o2: (22.000, 0.625) 0 deg"]
# ---
import csv

import gdsfactory as gf

gf.gpdk.PDK.activate()

WIDTH_MMI = 3.0      # um
LENGTH_MMI = 12.0    # um
OUTPUT = "ports.csv"

c = gf.components.mmi1x2(width_mmi=WIDTH_MMI, length_mmi=LENGTH_MMI)

rows = []
for p in c.ports:
    x, y = p.center                          # um
    info = p.layer_info                      # LayerInfo of the port layer, e.g. WG (1/0)
    rows.append([p.name, round(x, 6), round(y, 6), p.orientation, p.width,
                 f"{info.layer}/{info.datatype}", p.port_type])
    print(f"{p.name}: ({x:.3f}, {y:.3f}) {p.orientation:.0f} deg, width {p.width} um, layer {info.layer}/{info.datatype}")

with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["name", "x", "y", "orientation", "width", "layer", "port_type"])
    w.writerows(rows)
print(f"wrote {OUTPUT}: {len(rows)} ports of {c.name}")
