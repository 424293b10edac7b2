# ---
# title = "Circular 180-degree waveguide U-turn with a given radius"
# summary = "Builds a constant-radius circular arc bend (bend_circular) of 180 degrees, a U-turn that sends light back parallel to itself, radius in um, and writes it to GDS. Use an Euler bend instead for lower transition loss."
# kind = "sandbox"
# tags = ["bend", "circular", "arc", "u-turn", "180 degree", "hairpin", "radius"]
# apis = ["gdsfactory.components.bend_circular", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["uturn.gds"]
# cells = ["UTURN_R20"]
# layers = ["1/0"]
# bbox = {"UTURN_R20" = [0.0, -0.25, 20.25, 40.25]}
# stdout = ["port spacing 40.000 um"]
# ---
import gdsfactory as gf

radius = 20.0       # um
angle = 180.0       # degrees: a U-turn
cell_name = "UTURN_R20"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.bend_circular(radius=radius, angle=angle)
c.add_ports(ref.ports)
c.write_gds("uturn.gds", with_metadata=False)

spacing = abs(c.ports["o2"].center[1] - c.ports["o1"].center[1])  # both ports face west
print(f"{cell_name}: port spacing {spacing:.3f} um (2 x radius)")
