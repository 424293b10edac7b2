# ---
# title = "Metal wire between two bond pads"
# summary = "Connects two electrical ports (pad edges) with a Manhattan metal wire on the metal_routing cross-section (gf.routing.route_single_electrical; top metal 49/0 in the generic PDK). Use it for DC wiring between pads or to a heater contact."
# kind = "sandbox"
# tags = ["electrical route", "metal wire", "pads", "dc wiring", "metal routing", "wire"]
# apis = ["gdsfactory.routing.route_single_electrical", "gdsfactory.components.pad"]
# [expect]
# files = ["pad_wire.gds"]
# cells = ["PAD_WIRE"]
# layers = ["49/0"]
# stdout = ["wired e3 -> e1"]
# bbox = {"PAD_WIRE" = [-50.0, -50.0, 450.0, 250.0]}
# ---
import gdsfactory as gf

second_pad_at = (400.0, 200.0)   # um
cell_name = "PAD_WIRE"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
pad_a = c << gf.components.pad()
pad_b = c << gf.components.pad()
pad_b.move(second_pad_at)
gf.routing.route_single_electrical(c, pad_a.ports["e3"], pad_b.ports["e1"], cross_section="metal_routing")
c.write_gds("pad_wire.gds", with_metadata=False)

print(f"{cell_name}: wired e3 -> e1, layers {c.layers}, size {c.xsize:.0f} x {c.ysize:.0f} um")
