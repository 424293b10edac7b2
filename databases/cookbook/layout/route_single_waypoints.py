# ---
# title = "Route a waveguide through given waypoints (around an obstacle)"
# summary = "Forces a route to pass through a list of (x, y) waypoints in um with route_single(..., waypoints=[...]), e.g. to go around another device; the route turns at each waypoint with Euler bends. Prints its length in um (route.length is in database units) and number of bends."
# kind = "sandbox"
# tags = ["waypoints", "route", "detour", "obstacle", "custom route", "path", "routing"]
# apis = ["gdsfactory.routing.route_single"]
# [expect]
# files = ["detour.gds"]
# cells = ["DETOUR"]
# layers = ["1/0"]
# stdout = ["length 156.549 um", "4 bends"]
# bbox = {"DETOUR" = [0.0, -0.25, 110.0, 40.25]}
# ---
import gdsfactory as gf

waypoints = [(30, 0), (30, 40), (80, 40), (80, 0)]   # um, corners the route must pass
cell_name = "DETOUR"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
a = c << gf.components.straight(length=10)
b = c << gf.components.straight(length=10)
b.move((100, 0))
route = gf.routing.route_single(c, a.ports["o2"], b.ports["o1"], cross_section="strip", waypoints=waypoints)
c.write_gds("detour.gds", with_metadata=False)

print(f"{cell_name}: length {route.length * c.kcl.dbu:.3f} um, {route.n_bend90} bends")
