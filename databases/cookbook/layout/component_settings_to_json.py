# ---
# title = "Record the parameters a component was built with (settings and info) as JSON"
# summary = "Reads a component's settings (the arguments of its cell function, defaults filled in) and info (derived values such as a length) and writes them with the cell name to JSON, e.g. to document the variants of a sweep next to the GDS."
# kind = "sandbox"
# tags = ["settings", "parameters", "info", "metadata", "document", "json", "provenance"]
# apis = ["gdsfactory.Component.settings", "gdsfactory.Component.info", "gdsfactory.components.spiral"]
# [expect]
# files = ["spiral_settings.json"]
# json_keys = {"spiral_settings.json" = ["name", "settings", "info"]}
# json_values = {"spiral_settings.json" = {"settings" = {"length" = 200, "n_loops" = 4, "spacing" = 3.0}, "info" = {"length" = 2758.74}}}
# stdout = ["n_loops=4"]
# ---
import json

import gdsfactory as gf

gf.gpdk.PDK.activate()

sp = gf.components.spiral(length=200, n_loops=4)
settings = sp.settings.model_dump()                 # the function arguments, defaults included
info = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in sp.info.model_dump().items()}
with open("spiral_settings.json", "w") as f:
    json.dump({"name": sp.name, "settings": settings, "info": info}, f, indent=1, default=str)

print("spiral: " + ", ".join(f"{k}={v}" for k, v in settings.items()) + f"; total length {info['length']} um")
