# ---
# title = "Thermally tunable ring resonator with a metal heater"
# summary = "Builds a ring resonator with a heater over the ring and contact via stacks (ring_single_heater): radius and gap in um. Optical ports o1/o2 on the bus, electrical l_e*/r_e* for the heater. Use it when the resonance must be tuned; ring_single has no heater."
# kind = "sandbox"
# tags = ["ring", "heater", "tunable ring", "thermal tuning", "ring resonator", "phase"]
# apis = ["gdsfactory.components.ring_single_heater", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["ring_heater.gds"]
# cells = ["RING_HEATER_R10"]
# layers = ["1/0", "47/0"]
# bbox = {"RING_HEATER_R10" = [-14.0, -2.0, 13.0, 21.96]}
# stdout = ["optical o1 o2", "heater contacts 8"]
# ---
import gdsfactory as gf

radius = 10.0     # um
gap = 0.2         # um
cell_name = "RING_HEATER_R10"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.ring_single_heater(radius=radius, gap=gap)
c.add_ports(ref.ports)
c.write_gds("ring_heater.gds", with_metadata=False)

optical = sorted(p.name for p in c.ports if p.port_type == "optical")
contacts = [p for p in c.ports if p.port_type == "electrical"]
print(f"{cell_name}: optical {' '.join(optical)}, heater contacts {len(contacts)}")
