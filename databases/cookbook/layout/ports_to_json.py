# ---
# title = "Save port positions, widths and directions of a device as JSON"
# summary = "Collects each port of a component into a JSON object keyed by port name ({x, y, width, orientation} in um and degrees) plus the component's size, read from the built component. Use it for a machine-readable pin list of a device."
# kind = "sandbox"
# tags = ["ports", "json", "pin list", "port positions", "export", "orientation", "width"]
# apis = ["gdsfactory.Component.ports", "gdsfactory.components.mmi1x2", "gdsfactory.Component.xsize"]
# [expect]
# files = ["mmi1x2_ports.json"]
# json_keys = {"mmi1x2_ports.json" = ["ports", "size_um", "n_ports"]}
# json_values = {"mmi1x2_ports.json" = {"n_ports" = 3, "size_um" = [25.5, 2.5], "ports" = {"o1" = {"x" = -10.0, "orientation" = 180.0}, "o2" = {"y" = 0.625, "width" = 0.5}}}}
# stdout = ["3 ports"]
# ---
import json

import gdsfactory as gf

gf.gpdk.PDK.activate()

c = gf.components.mmi1x2()
ports = {}
for p in c.ports:
    x, y = p.center
    ports[p.name] = {"x": round(x, 3), "y": round(y, 3), "width": p.width, "orientation": p.orientation}

data = {"ports": ports, "size_um": [round(c.xsize, 3), round(c.ysize, 3)], "n_ports": len(ports)}
with open("mmi1x2_ports.json", "w") as f:
    json.dump(data, f, indent=1)

print(f"mmi1x2: {len(ports)} ports saved ({', '.join(ports)})")
