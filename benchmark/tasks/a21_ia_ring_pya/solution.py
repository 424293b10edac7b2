"""An all-pass ring drawn with pya, with a DRC-based gap verification."""
import math

R, W, CY, NPTS = 12.0, 0.5, 12.7, 512
wg = layout.layer(1, 0)


def circle(radius, n):
    return [pya.DPoint(radius * math.cos(2 * math.pi * k / n), radius * math.sin(2 * math.pi * k / n) + CY)
            for k in range(n)]


ring_cell = layout.create_cell("RING")
outer = pya.DPolygon(circle(R + W / 2, NPTS))
outer.insert_hole(circle(R - W / 2, NPTS))
ring_cell.shapes(wg).insert(outer)
cell.insert(pya.DCellInstArray(ring_cell.cell_index(), pya.DTrans()))

cell.shapes(wg).insert(pya.DBox(-20, -W / 2, 20, W / 2))

all_wg = pya.Region(cell.begin_shapes_rec(wg))
if all_wg.space_check(int(round(0.25 / dbu))).is_empty():
    raise RuntimeError("expected a gap below 0.25 um")
if not all_wg.space_check(int(round(0.15 / dbu))).is_empty():
    raise RuntimeError("gap below 0.15 um")
gap = (CY - R - W / 2) - W / 2
print(f"gap {gap:.3f} um")
