# ---
# title = "Strip-to-rib transition taper (slab widens under the waveguide)"
# summary = "Builds a strip-to-ridge transition (taper_strip_to_ridge): the core stays on WG 1/0 while a slab on SLAB90 3/0 grows from w_slab1 to w_slab2 (um) over the length. Use it between a strip waveguide and a rib section such as a modulator or a rib waveguide."
# kind = "sandbox"
# tags = ["strip to rib", "ridge", "rib", "slab", "transition", "taper"]
# apis = ["gdsfactory.components.taper_strip_to_ridge", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["strip_to_rib.gds"]
# cells = ["STRIP2RIB"]
# layers = ["1/0", "3/0"]
# bbox = {"STRIP2RIB" = [0.0, -3.0, 15.0, 3.0]}
# stdout = ["slab 0.15 -> 6.0 um"]
# ---
import gdsfactory as gf

length = 15.0        # um
w_slab1 = 0.15       # um, slab width at the strip end
w_slab2 = 6.0        # um, slab width at the rib end
cell_name = "STRIP2RIB"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.taper_strip_to_ridge(length=length, w_slab1=w_slab1, w_slab2=w_slab2)
c.add_ports(ref.ports)
c.write_gds("strip_to_rib.gds", with_metadata=False)

print(f"{cell_name}: slab {w_slab1} -> {w_slab2} um over {length} um, layers {c.layers}")
