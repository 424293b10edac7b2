# ---
# title = "Custom cross-section with extra sections (slab and a side heater strip)"
# summary = "Builds a cross-section from a core plus extra gf.Section layers: a wide slab centered on the core and a heater strip offset to one side (offset in um from the core center; positive offset is on the right of the propagation direction), then extrudes a straight with it and prints where each layer lies."
# kind = "sandbox"
# tags = ["cross-section", "section", "custom layers", "offset", "heater strip", "slab", "multi-layer waveguide"]
# apis = ["gdsfactory.Section", "gdsfactory.cross_section.cross_section", "gdsfactory.components.straight", "gdsfactory.Component.get_polygons"]
# [expect]
# files = ["custom_xs.gds"]
# cells = ["WG_CUSTOM_XS"]
# layers = ["1/0", "2/0", "47/0"]
# stdout = ["1/0 y -0.25..0.25", "2/0 y -1.50..1.50", "47/0 y -3.50..-2.50"]
# ---
import gdsfactory as gf

core_width = 0.5      # um, on WG 1/0
slab_width = 3.0      # um, on 2/0, centered
heater_width = 1.0    # um, on HEATER 47/0
heater_offset = 3.0   # um from the core center (positive: right of the propagation direction)
length = 20.0         # um
cell_name = "WG_CUSTOM_XS"

gf.gpdk.PDK.activate()

sections = (
    gf.Section(width=slab_width, offset=0, layer=(2, 0), name="slab"),
    gf.Section(width=heater_width, offset=heater_offset, layer=(47, 0), name="heater"),
)
xs = gf.cross_section.cross_section(width=core_width, layer=(1, 0), sections=sections)

c = gf.Component(cell_name)
ref = c << gf.components.straight(length=length, cross_section=xs)
c.add_ports(ref.ports)
c.write_gds("custom_xs.gds", with_metadata=False)

flat = gf.components.straight(length=length, cross_section=xs)
for (layer, datatype), polys in sorted(flat.get_polygons(by="tuple").items()):
    ys = [v for p in polys for v in (p.bbox().bottom, p.bbox().top)]
    print(f"{layer}/{datatype} y {min(ys) * c.kcl.dbu:.2f}..{max(ys) * c.kcl.dbu:.2f} um")
