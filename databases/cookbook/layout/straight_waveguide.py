# ---
# title = "Straight waveguide section of a given length, width and cross-section"
# summary = "Builds a straight waveguide from a named cross-section of the generic PDK ('strip' on WG 1/0, or 'rib', 'nitride' ...) with its length and core width in um, places it in a named top cell with its two optical ports and writes GDS without metadata. For a width change use a taper."
# kind = "sandbox"
# tags = ["straight", "waveguide", "strip", "wire", "length", "width", "cross-section", "gds"]
# apis = ["gdsfactory.components.straight", "gdsfactory.Component", "gdsfactory.Component.add_ports", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["wg_section.gds"]
# cells = ["WG_SECTION"]
# layers = ["1/0"]
# bbox = {"WG_SECTION" = [0.0, -0.4, 120.0, 0.4]}
# stdout = ["port distance 120.000 um", "width 0.8 um"]
# ---
import gdsfactory as gf

section_length = 120.0    # um
core_width = 0.8          # um
xs_name = "strip"         # cross-section of the active PDK
top_name = "WG_SECTION"

gf.gpdk.PDK.activate()  # gdsfactory 9 needs an active PDK before building anything

top = gf.Component(top_name)
wire = top << gf.components.straight(length=section_length, width=core_width, cross_section=xs_name)
top.add_ports(wire.ports)                             # o1 (west end), o2 (east end)
top.write_gds("wg_section.gds", with_metadata=False)  # readable by KLayout 0.28.5

west, east = top.ports["o1"], top.ports["o2"]
distance = east.center[0] - west.center[0]
print(f"{top_name} ({xs_name}): port distance {distance:.3f} um, width {east.width} um")
