# ---
# title = "Thermo-optic phase shifter: straight waveguide with a metal heater"
# summary = "Builds a straight waveguide covered by a metal heater strip with via stacks and contact pads at both ends (straight_heater_metal), heater length in um. Optical ports o1/o2, electrical contacts l_e* (left) and r_e* (right). Use it in an MZI arm or ring for thermal tuning."
# kind = "sandbox"
# tags = ["heater", "phase shifter", "thermo-optic", "thermal tuning", "metal heater", "tunable"]
# apis = ["gdsfactory.components.straight_heater_metal", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["heater.gds"]
# cells = ["HEATER_200"]
# layers = ["1/0", "47/0", "49/0"]
# bbox = {"HEATER_200" = [-15.9, -5.5, 215.9, 5.5]}
# stdout = ["2 optical", "8 electrical", "optical length 200.0 um"]
# ---
import gdsfactory as gf

length = 200.0     # um, heated waveguide length
cell_name = "HEATER_200"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.straight_heater_metal(length=length)
c.add_ports(ref.ports)
c.write_gds("heater.gds", with_metadata=False)

optical = [p for p in c.ports if p.port_type == "optical"]
electrical = [p for p in c.ports if p.port_type == "electrical"]
span = c.ports["o2"].center[0] - c.ports["o1"].center[0]
print(f"{cell_name}: {len(optical)} optical, {len(electrical)} electrical ports, optical length {span:.1f} um")
