# ---
# title = "Settings and info of a gdsfactory component (parameters used, derived values) to JSON"
# summary = "Builds a generic-PDK component and writes component.json with its name, its settings (the parameters it was built with, defaults included), its info (derived values the cell stores, e.g. a straight's length and width) and its ports and size. Use it to record how a cell was made or to read a derived value such as a waveguide length."
# kind = "sandbox"
# tags = ["settings", "info", "parameters", "metadata", "component info", "json", "gdsfactory", "record"]
# apis = ["gdsfactory.components.straight", "gdsfactory.Component.settings", "gdsfactory.Component.info", "gdsfactory.Component.ports"]
# fixture = ""
# [expect]
# files = ["component.json"]
# json_keys = {"component.json" = ["name", "settings", "info", "ports"]}
# json_values = {"component.json" = {"length_um" = 42.5, "width_um" = 0.5, "cross_section" = "strip", "xsize_um" = 42.5}}
# stdout = ["length 42.5 um"]
# ---
import json

import gdsfactory as gf

gf.gpdk.PDK.activate()

LENGTH = 42.5      # um
OUTPUT = "component.json"

c = gf.components.straight(length=LENGTH, cross_section="strip")

settings = c.settings.model_dump()     # parameters the component was built with
info = c.info.model_dump()             # values the component computed and stored
data = {"name": c.name,
        "settings": settings,
        "info": info,
        "ports": [p.name for p in c.ports],
        "length_um": info["length"], "width_um": info["width"],
        "cross_section": settings["cross_section"],
        "xsize_um": c.xsize}
with open(OUTPUT, "w") as f:
    json.dump(data, f, indent=2, default=str)     # default=str: any non-JSON value as text
print(f"{c.name}: length {info['length']} um, width {info['width']} um; wrote {OUTPUT}")
