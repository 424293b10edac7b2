# ---
# title = "Cross-section defined by a settings dictionary (width, layer, cladding)"
# summary = "Creates a cross-section from a plain dict of settings (as read from a JSON/YAML technology file): width in um, layer as (layer, datatype), cladding layers with their offsets in um, via gf.cross_section.cross_section(**settings); and a PDK cross-section by name with overrides via gf.get_cross_section. Builds a straight with each."
# kind = "sandbox"
# tags = ["cross-section", "settings", "dict", "json", "technology file", "parametrize", "get_cross_section"]
# apis = ["gdsfactory.cross_section.cross_section", "gdsfactory.get_cross_section", "gdsfactory.components.straight"]
# [expect]
# files = ["xs_from_dict.gds"]
# cells = ["XS_FROM_DICT"]
# layers = ["34/0", "36/0", "1/0"]
# stdout = ["nitride-like 0.70 um on (34, 0)", "strip override width 1.20 um"]
# bbox = {"XS_FROM_DICT" = [0.0, -2.35, 10.0, 10.6]}
# ---
import gdsfactory as gf

settings = {                     # e.g. loaded with json.load from a technology file
    "width": 0.7,                # um
    "layer": (34, 0),
    "cladding_layers": [(36, 0)],
    "cladding_offsets": [2.0],   # um beyond the core on each side
}
cell_name = "XS_FROM_DICT"

gf.gpdk.PDK.activate()

xs_custom = gf.cross_section.cross_section(**settings)
xs_strip = gf.get_cross_section("strip", width=1.2)   # a PDK cross-section by name, width overridden

c = gf.Component(cell_name)
a = c << gf.components.straight(length=10, cross_section=xs_custom)
b = c << gf.components.straight(length=10, cross_section=xs_strip)
b.move((0, 10))                                       # second waveguide 10 um above the first
c.write_gds("xs_from_dict.gds", with_metadata=False)

print(f"{cell_name}: nitride-like {xs_custom.width:.2f} um on {settings['layer']}, strip override width {xs_strip.width:.2f} um")
