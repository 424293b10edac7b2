# ---
# title = "Rib waveguide cross-section with a slab, used for a straight and a bend"
# summary = "Defines a rib (partially etched) waveguide cross-section: core width in um on WG 1/0 with a slab on SLAB90 3/0 that extends a chosen offset in um beyond each side of the core (gf.cross_section.rib), and builds a straight and a 90-degree bend from it, connected. Use strip for a fully etched wire."
# kind = "sandbox"
# tags = ["rib", "ridge waveguide", "slab", "shallow etch", "cross-section", "partial etch"]
# apis = ["gdsfactory.cross_section.rib", "gdsfactory.components.straight", "gdsfactory.components.bend_euler", "gdsfactory.ComponentReference.connect"]
# [expect]
# files = ["rib.gds"]
# cells = ["RIB_WG"]
# layers = ["1/0", "3/0"]
# stdout = ["core 0.6 um", "slab 8.6 um"]
# bbox = {"RIB_WG" = [0.0, -4.3, 54.3, 20.0]}
# ---
import gdsfactory as gf

core_width = 0.6       # um
slab_extension = 4.0   # um, slab beyond each side of the core
length = 30.0          # um, straight before the bend
radius = 20.0          # um
cell_name = "RIB_WG"

gf.gpdk.PDK.activate()

xs = gf.cross_section.rib(width=core_width, cladding_offsets=(slab_extension,), radius=radius)
c = gf.Component(cell_name)
s = c << gf.components.straight(length=length, cross_section=xs)
b = c << gf.components.bend_euler(radius=radius, cross_section=xs)
b.connect("o1", s.ports["o2"])           # the bend starts where the straight ends
c.add_port("o1", port=s.ports["o1"])
c.add_port("o2", port=b.ports["o2"])
c.write_gds("rib.gds", with_metadata=False)

slab = [sec for sec in xs.sections if sec.layer == "SLAB90"][0]
print(f"{cell_name}: core {xs.width} um, slab {slab.width} um wide")
