# ---
# title = "Draw a ring (annulus) from an inner and an outer radius"
# summary = "Builds two circles as polygons, converts them to integer geometry with to_itype(dbu) and subtracts them as Regions, then inserts the ring on a layer. Use it for ring resonator outlines, round guard rings or donuts; widths are in um."
# kind = "edit"
# tags = ["ring", "annulus", "donut", "ring resonator", "circle", "radius", "subtract", "Region"]
# apis = ["pya.DPolygon.ellipse", "pya.DPolygon.to_itype", "pya.Region.new", "pya.Region.__sub__", "pya.Shapes.insert", "pya.Region.area"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"24/0" = 1}
# stdout = ["ring area 50.3"]
# ---
# Parameters (um)
LAYER, DATATYPE = 24, 0
CX, CY = 80.0, 30.0
R_OUTER, R_INNER = 5.0, 3.0
NPOINTS = 256


def disk(radius):
    """A circle as an integer-coordinate Region (um -> dbu via to_itype)."""
    d = pya.DPolygon.ellipse(pya.DBox(CX - radius, CY - radius, CX + radius, CY + radius), NPOINTS)
    return pya.Region(d.to_itype(dbu))


ring = disk(R_OUTER) - disk(R_INNER)
cell.shapes(layout.layer(LAYER, DATATYPE)).insert(ring)
print(f"ring r={R_INNER}..{R_OUTER} um on {LAYER}/{DATATYPE}: ring area {ring.area() * dbu ** 2:.1f} um2")
