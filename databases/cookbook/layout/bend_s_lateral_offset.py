# ---
# title = "S-bend that shifts a waveguide sideways by a given offset"
# summary = "Builds a smooth S-shaped bend (bend_s, a Bezier curve) of a length and lateral offset in um: the output port is parallel to the input, displaced sideways. Use it to change the pitch between waveguides or to offset a path without 90-degree bends."
# kind = "sandbox"
# tags = ["s-bend", "offset", "sbend", "lateral shift", "bezier", "pitch change"]
# apis = ["gdsfactory.components.bend_s", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["sbend.gds"]
# cells = ["SBEND_20x5"]
# layers = ["1/0"]
# bbox = {"SBEND_20x5" = [0.0, -0.25, 20.0, 5.25]}
# stdout = ["offset 5.000 um", "both ports horizontal"]
# ---
import gdsfactory as gf

length = 20.0     # um, along the propagation direction
offset = 5.0      # um, sideways displacement
cell_name = "SBEND_20x5"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.bend_s(size=(length, offset))
c.add_ports(ref.ports)
c.write_gds("sbend.gds", with_metadata=False)

o1, o2 = c.ports["o1"], c.ports["o2"]
horizontal = {o1.orientation, o2.orientation} == {0, 180}
print(f"{cell_name}: offset {o2.center[1] - o1.center[1]:.3f} um, " + ("both ports horizontal" if horizontal else "ports not parallel"))
