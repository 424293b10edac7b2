# ---
# title = "Waveguide along a hand-drawn path (straight + Euler bend + straight), extruded"
# summary = "Builds a gf.Path from pieces (gf.path.straight, gf.path.euler bend, another straight), reads its length in um and extrudes it with a cross-section into a waveguide with ports at both ends. Use it for a custom trajectory that routing functions do not give."
# kind = "sandbox"
# tags = ["path", "extrude", "trajectory", "custom waveguide", "euler", "path length"]
# apis = ["gdsfactory.path.straight", "gdsfactory.path.euler", "gdsfactory.path.extrude", "gdsfactory.Path.length"]
# [expect]
# files = ["path_wg.gds"]
# cells = ["PATH_WG"]
# layers = ["1/0"]
# stdout = ["path length 38.562 um", "o2 (24.163, 19.163) facing 90"]
# ---
import gdsfactory as gf

first = 10.0     # um, straight before the bend
radius = 10.0    # um, Euler bend radius (90 degrees, counter-clockwise)
last = 5.0       # um, straight after the bend
cell_name = "PATH_WG"

gf.gpdk.PDK.activate()

p = gf.path.straight(length=first) + gf.path.euler(radius=radius, angle=90) + gf.path.straight(length=last)
wg = gf.path.extrude(p, cross_section="strip")

c = gf.Component(cell_name)
ref = c << wg
c.add_ports(ref.ports)
c.write_gds("path_wg.gds", with_metadata=False)

o2 = c.ports["o2"]
print(f"{cell_name}: path length {p.length():.3f} um, o2 ({o2.center[0]:.3f}, {o2.center[1]:.3f}) facing {o2.orientation:.0f}")
