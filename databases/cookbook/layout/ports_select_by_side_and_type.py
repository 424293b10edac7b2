# ---
# title = "Select a component's ports by side (orientation) and type"
# summary = "Lists only the ports facing one direction (orientation 0 = east, 90 = north, 180 = west, 270 = south) or of one type (optical, electrical) with get_ports_list(orientation=..., port_type=...), e.g. to route only the outputs of a splitter or only a heater's contacts."
# kind = "sandbox"
# tags = ["ports", "select ports", "filter ports", "orientation", "port type", "outputs", "east ports"]
# apis = ["gdsfactory.Component.get_ports_list", "gdsfactory.components.straight_heater_metal", "gdsfactory.components.mmi2x2"]
# [expect]
# files = ["selected_ports.json"]
# json_values = {"selected_ports.json" = {"mmi_east" = ["o3", "o4"], "mmi_west" = ["o1", "o2"], "heater_optical" = ["o1", "o2"], "heater_electrical_count" = 8}}
# stdout = ["east o3 o4", "west o1 o2"]
# ---
import json

import gdsfactory as gf

gf.gpdk.PDK.activate()

mmi = gf.components.mmi2x2()
heater = gf.components.straight_heater_metal(length=100)

east = sorted(p.name for p in mmi.get_ports_list(orientation=0))      # outputs
west = sorted(p.name for p in mmi.get_ports_list(orientation=180))    # inputs
optical = sorted(p.name for p in heater.get_ports_list(port_type="optical"))
electrical = heater.get_ports_list(port_type="electrical")

result = {"mmi_east": east, "mmi_west": west, "heater_optical": optical, "heater_electrical_count": len(electrical)}
with open("selected_ports.json", "w") as f:
    json.dump(result, f)
print(f"mmi2x2: east {' '.join(east)}, west {' '.join(west)}; heater: {len(electrical)} electrical ports")
