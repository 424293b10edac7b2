# ---
# title = "Netlist of a gdsfactory circuit (instances, nets, ports) summarised to JSON"
# summary = "Builds a generic-PDK Mach-Zehnder (mzi) and extracts its netlist with get_netlist(): instances with their component and settings, nets (pairs of connected instance ports) and external ports. Writes netlist.json with the full netlist and a count of instances per component type. In gdsfactory 9 connections are listed under 'nets' as {p1, p2}."
# kind = "sandbox"
# tags = ["netlist", "connectivity", "instances", "nets", "connections", "json", "mzi", "gdsfactory", "schematic"]
# apis = ["gdsfactory.components.mzi", "gdsfactory.Component.get_netlist"]
# fixture = ""
# [expect]
# files = ["netlist.json"]
# json_keys = {"netlist.json" = ["netlist", "component_counts", "ports"]}
# json_values = {"netlist.json" = {"num_instances" = 16, "num_nets" = 16, "num_ports" = 2, "num_mmi1x2" = 2, "num_bends" = 8}}
# stdout = ["16 instances", "16 nets"]
# ---
import json

import gdsfactory as gf

gf.gpdk.PDK.activate()

DELTA_LENGTH = 10.0    # um, arm length difference
OUTPUT = "netlist.json"

c = gf.components.mzi(delta_length=DELTA_LENGTH)
netlist = c.get_netlist()      # {"instances", "placements", "ports", "nets"}

counts = {}
for name, inst in netlist["instances"].items():
    counts[inst["component"]] = counts.get(inst["component"], 0) + 1

data = {"component": c.name,
        "num_instances": len(netlist["instances"]),
        "num_nets": len(netlist["nets"]),
        "num_ports": len(netlist["ports"]),
        "ports": netlist["ports"],                 # external port -> "instance,port"
        "component_counts": counts,
        "num_mmi1x2": counts.get("mmi1x2", 0),
        "num_bends": counts.get("bend_euler", 0),
        "netlist": netlist}
with open(OUTPUT, "w") as f:
    json.dump(data, f, indent=2, default=str)
print(f"{c.name}: {data['num_instances']} instances, {data['num_nets']} nets, ports {list(netlist['ports'])}; "
      f"components {counts}")
