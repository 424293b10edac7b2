# ---
# title = "Wire a heater's contacts to a row of bond pads"
# summary = "Places a metal-heater phase shifter and a row of pads above it (pad ports facing down), then routes the heater's two contact ports to the pads with gf.routing.route_bundle_electrical on the metal_routing cross-section. A typical thermal phase shifter with its DC pads."
# kind = "sandbox"
# tags = ["heater", "pads", "electrical routing", "route bundle electrical", "dc pads", "phase shifter wiring"]
# apis = ["gdsfactory.routing.route_bundle_electrical", "gdsfactory.components.straight_heater_metal", "gdsfactory.components.pad_array"]
# [expect]
# files = ["heater_pads.gds"]
# cells = ["HEATER_WITH_PADS"]
# layers = ["1/0", "47/0", "49/0"]
# stdout = ["2 wires"]
# bbox = {"HEATER_WITH_PADS" = [-50.0, -5.5, 200.0, 200.0]}
# ---
import gdsfactory as gf

heater_length = 100.0   # um
pad_pitch = 150.0       # um
pad_row_y = 150.0       # um, height of the pad row
cell_name = "HEATER_WITH_PADS"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
heater = c << gf.components.straight_heater_metal(length=heater_length)
pads = c << gf.components.pad_array(columns=2, column_pitch=pad_pitch, port_orientation=270)  # ports face down
pads.move((0, pad_row_y))
contacts = [heater.ports["l_e2"], heater.ports["r_e2"]]   # top edges of the two contact pads
routes = gf.routing.route_bundle_electrical(c, contacts, list(pads.ports), cross_section="metal_routing")
c.add_ports(heater.ports.filter(port_type="optical"))
c.write_gds("heater_pads.gds", with_metadata=False)

print(f"{cell_name}: {len(routes)} wires, optical ports {', '.join(p.name for p in c.ports)}")
