# ---
# title = "Euler bend with a chosen radius and angle"
# summary = "Builds an Euler (clothoid) waveguide bend, which has lower loss and mode mismatch than a circular arc, with the effective radius in um and the bend angle in degrees, and writes it to GDS. Use bend_circular when a constant-radius arc is required."
# kind = "sandbox"
# tags = ["bend", "euler", "clothoid", "90 degree bend", "radius", "waveguide bend"]
# apis = ["gdsfactory.components.bend_euler", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["bend_euler.gds"]
# cells = ["BEND_EULER_R10"]
# layers = ["1/0"]
# bbox = {"BEND_EULER_R10" = [0.0, -0.25, 10.25, 10.0]}
# stdout = ["o2 at (10.000, 10.000) facing 90 deg"]
# ---
import gdsfactory as gf

radius = 10.0          # um, effective radius
angle = 90.0           # degrees, counter-clockwise
cell_name = "BEND_EULER_R10"

gf.gpdk.PDK.activate()

bend = gf.components.bend_euler(radius=radius, angle=angle)
c = gf.Component(cell_name)
ref = c << bend
c.add_ports(ref.ports)
c.write_gds("bend_euler.gds", with_metadata=False)

o2 = c.ports["o2"]
print(f"{cell_name}: o2 at ({o2.center[0]:.3f}, {o2.center[1]:.3f}) facing {o2.orientation:.0f} deg")
