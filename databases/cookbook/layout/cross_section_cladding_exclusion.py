# ---
# title = "Waveguide with a cladding / keep-out layer around the core"
# summary = "Adds a cladding (or keep-out / exclusion) layer that follows the waveguide at a fixed distance in um on each side, through the cross-section's cladding_layers and cladding_offsets, and builds a bend with it. Use it for an oxide-open, trench or no-fill layer that must track the route."
# kind = "sandbox"
# tags = ["cladding", "keep-out", "exclusion", "trench", "no fill", "cross-section", "offset layer"]
# apis = ["gdsfactory.cross_section.strip", "gdsfactory.components.bend_euler"]
# [expect]
# files = ["clad_bend.gds"]
# cells = ["BEND_CLAD"]
# layers = ["1/0", "111/0"]
# stdout = ["cladding 3.0 um each side", "111/0"]
# bbox = {"BEND_CLAD" = [0.0, -3.25, 13.25, 10.0]}
# ---
import gdsfactory as gf

core_width = 0.5        # um
clad_offset = 3.0       # um beyond the core on each side
clad_layer = (111, 0)   # WGCLAD in the generic PDK
radius = 10.0           # um
cell_name = "BEND_CLAD"

gf.gpdk.PDK.activate()

xs = gf.cross_section.strip(width=core_width, cladding_layers=(clad_layer,), cladding_offsets=(clad_offset,))
c = gf.Component(cell_name)
ref = c << gf.components.bend_euler(radius=radius, cross_section=xs)
c.add_ports(ref.ports)
c.write_gds("clad_bend.gds", with_metadata=False)

print(f"{cell_name}: cladding {clad_offset} um each side on {clad_layer[0]}/{clad_layer[1]}, layers {c.layers}")
