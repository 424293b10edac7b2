# ---
# title = "Give a library component a custom cell name before writing it"
# summary = "PDK component functions return cached, locked cells with long automatic names; renaming one raises LockedError. Take a copy() and set its name (or wrap it in gf.Component(name)) to get the cell name you want in the GDS. Prints the automatic and the new name."
# kind = "sandbox"
# tags = ["cell name", "rename", "top cell name", "copy", "locked cell", "name the cell"]
# apis = ["gdsfactory.Component.copy", "gdsfactory.Component.name", "gdsfactory.components.coupler"]
# [expect]
# files = ["dc_named.gds"]
# cells = ["DC_50_50"]
# layers = ["1/0"]
# stdout = ["renamed coupler_", "-> DC_50_50"]
# ---
import gdsfactory as gf

new_name = "DC_50_50"

gf.gpdk.PDK.activate()

cached = gf.components.coupler(gap=0.25, length=14)   # cached and locked: cached.name = ... raises
c = cached.copy()                                     # an unlocked copy with the same geometry and ports
c.name = new_name
c.write_gds("dc_named.gds", with_metadata=False)

print(f"renamed {cached.name[:8]}... -> {c.name}, {len(c.ports)} ports")
