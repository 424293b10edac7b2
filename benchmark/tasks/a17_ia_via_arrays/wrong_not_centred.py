"""Via arrays centred in every metal pad, then enclosure and spacing checks."""
import math

VIA, PITCH, ENC = 0.4, 1.0, 0.3
metal_layer = layout.layer(2, 0)
via_layer = layout.layer(3, 0)

via = layout.create_cell("VIA")
via.shapes(via_layer).insert(pya.DBox(-VIA / 2, -VIA / 2, VIA / 2, VIA / 2))

total = 0
for shape in list(cell.shapes(metal_layer).each()):
    pad = shape.dbbox()
    avail_x = pad.width() - 2 * ENC - VIA
    avail_y = pad.height() - 2 * ENC - VIA
    if avail_x < -1e-9 or avail_y < -1e-9:
        continue
    nx = int(math.floor(avail_x / PITCH + 1e-9)) + 1
    ny = int(math.floor(avail_y / PITCH + 1e-9)) + 1
    c = pad.center()
    x0 = pad.left + ENC + VIA / 2
    y0 = pad.bottom + ENC + VIA / 2
    arr = pya.DCellInstArray(via.cell_index(), pya.DTrans(pya.DVector(x0, y0)),
                             pya.DVector(PITCH, 0), pya.DVector(0, PITCH), nx, ny)
    cell.insert(arr)
    total += nx * ny

vias = pya.Region(cell.begin_shapes_rec(via_layer))
metal = pya.Region(cell.shapes(metal_layer))
enc = int(round(ENC / dbu))
bad_enc = vias.sized(enc) - metal
if not bad_enc.is_empty():
    raise RuntimeError("via enclosure violated")
if vias.space_check(int(round(0.5 / dbu))).count():
    raise RuntimeError("via spacing violated")
print(f"placed {total} vias")
