# ---
# title = "Draw a 90-degree circular waveguide bend as a path"
# summary = "Samples points on a circular arc (radius, start and end angle in degrees, centre in um) and inserts them as a DPath with the waveguide width. Use it for a bend between two straight paths; more points give a smoother bend."
# kind = "edit"
# tags = ["bend", "arc", "curve", "waveguide bend", "radius", "90 degree", "euler", "circular"]
# apis = ["pya.DPath.new", "pya.DPoint.new", "pya.DPath.length", "pya.Shapes.insert"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"1/0" = 5}
# stdout = ["arc length 15.7"]
# ---
import math

# Parameters (um, degrees)
LAYER, DATATYPE = 1, 0
CX, CY = 20.0, 30.0           # arc centre
RADIUS = 10.0
A_START, A_END = 270.0, 360.0  # from straight below the centre to straight right of it
WIDTH = 0.5
NPOINTS = 65

angles = [math.radians(A_START + (A_END - A_START) * i / (NPOINTS - 1)) for i in range(NPOINTS)]
points = [pya.DPoint(CX + RADIUS * math.cos(a), CY + RADIUS * math.sin(a)) for a in angles]
bend = pya.DPath(points, WIDTH)
cell.shapes(layout.layer(LAYER, DATATYPE)).insert(bend)
print(f"bend r={RADIUS} um from {A_START} to {A_END} deg: arc length {bend.length():.1f} um, width {WIDTH} um")
