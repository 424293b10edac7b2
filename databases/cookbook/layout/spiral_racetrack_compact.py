# ---
# title = "Racetrack spiral with chosen straight length and waveguide spacings"
# summary = "Builds a racetrack-shaped spiral (spiral_racetrack): straight segments of a length in um and the center-to-center spacings of neighbouring waveguides in um (one per turn); the ports end on opposite sides. Use it for a compact long waveguide; spiral gives a double spiral."
# kind = "sandbox"
# tags = ["spiral", "racetrack spiral", "delay line", "compact", "spacing"]
# apis = ["gdsfactory.components.spiral_racetrack", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["spiral_racetrack.gds"]
# cells = ["SPIRAL_RT"]
# layers = ["1/0"]
# bbox = {"SPIRAL_RT" = [-25.975, -26.25, 55.975, 8.25]}
# stdout = ["o1 (0.0, 8.0)", "o2 (30.0, -26.0)"]
# ---
import gdsfactory as gf

straight_length = 30.0          # um
spacings = (2.0, 2.0, 2.0, 2.0)   # um, center-to-center spacing of neighbouring turns
cell_name = "SPIRAL_RT"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.spiral_racetrack(straight_length=straight_length, spacings=spacings)
c.add_ports(ref.ports)
c.write_gds("spiral_racetrack.gds", with_metadata=False)

print(f"{cell_name}: " + ", ".join(f"{p.name} ({p.center[0]:.1f}, {p.center[1]:.1f})" for p in c.ports))
