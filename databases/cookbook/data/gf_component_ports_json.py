# ---
# title = "Ports of a gdsfactory component as JSON, with the component's size"
# summary = "Builds a generic-PDK 2x2 MMI and writes ports.json: the component name, its size in um and a list of ports (name, center [x, y] in um, orientation in degrees, width, layer 'L/D', port type), plus the number of optical ports on each side. Use ports_csv for a flat table instead."
# kind = "sandbox"
# tags = ["ports", "json", "port list", "component size", "mmi2x2", "gdsfactory", "orientation", "export ports"]
# apis = ["gdsfactory.components.mmi2x2", "gdsfactory.Component.ports", "gdsfactory.Component.xsize", "gdsfactory.Port.center", "gdsfactory.Port.orientation"]
# fixture = ""
# [expect]
# files = ["ports.json"]
# json_keys = {"ports.json" = ["component", "ports"]}
# json_values = {"ports.json" = {"num_ports" = 4, "west_ports" = 2, "east_ports" = 2, "xsize_um" = 25.5, "ysize_um" = 2.5}}
# stdout = ["4 ports"]
# ---
import json

import gdsfactory as gf

gf.gpdk.PDK.activate()

OUTPUT = "ports.json"
c = gf.components.mmi2x2(length_mmi=5.5, width_mmi=2.5)

ports = []
for p in c.ports:
    info = p.layer_info
    ports.append({"name": p.name, "center": [p.center[0], p.center[1]], "orientation": p.orientation,
                  "width": p.width, "layer": f"{info.layer}/{info.datatype}", "port_type": p.port_type})

data = {"component": c.name,
        "xsize_um": c.xsize, "ysize_um": c.ysize,
        "num_ports": len(ports),
        "west_ports": sum(1 for p in ports if p["orientation"] == 180),   # facing -x
        "east_ports": sum(1 for p in ports if p["orientation"] == 0),     # facing +x
        "ports": ports}
with open(OUTPUT, "w") as f:
    json.dump(data, f, indent=2)
print(f"wrote {OUTPUT}: {len(ports)} ports, component {c.xsize} x {c.ysize} um")
