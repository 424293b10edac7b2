"""Tile-based density fill on 1/2 with keep-out from 1/0, in its own cell."""
import json

import klayout.db as kdb

TILE, SQ, PITCH, KEEP, TARGET = 20.0, 2.0, 4.0, 0.5, 0.2

ly = kdb.Layout()
ly.read("chip.gds")
top = ly.top_cell()
dbu = ly.dbu
die = kdb.Region(top.begin_shapes_rec(ly.layer(99, 0))).bbox()
wg = kdb.Region(top.begin_shapes_rec(ly.layer(1, 0))).merged()
keepout = wg.sized(int(round(KEEP / dbu)), int(round(KEEP / dbu)), 2)


def um(v):
    return int(round(v / dbu))


tiles = []
y = die.bottom
while y < die.top:
    x = die.left
    while x < die.right:
        tiles.append(kdb.Box(x, y, min(x + um(TILE), die.right), min(y + um(TILE), die.top)))
        x += um(TILE)
    y += um(TILE)


def density(tile, region):
    return (region & kdb.Region(tile)).area() / tile.area()


fill = kdb.Region()
low_before = [t for t in tiles if density(t, wg) < TARGET]
for t in low_before:
    ix = 0
    while True:
        x0 = die.left + um(1 + PITCH * ix)
        if x0 >= t.right:
            break
        iy = 0
        while True:
            y0 = die.bottom + um(1 + PITCH * iy)
            if y0 >= t.top:
                break
            sq = kdb.Box(x0, y0, x0 + um(SQ), y0 + um(SQ))
            if t.contains(sq.p1) and t.contains(sq.p2) and kdb.Region(sq).interacting(keepout).is_empty():
                fill.insert(sq)
            iy += 1
        ix += 1

fill_cell = ly.create_cell("FILL")
fill_cell.shapes(ly.layer(1, 2)).insert(fill)
top.insert(kdb.CellInstArray(fill_cell.cell_index(), kdb.Trans()))
ly.write("filled.gds")

total = wg + fill
low_after = [t for t in tiles if density(t, total) < TARGET]
json.dump({"tiles_below_before": len(low_before), "tiles_below_after": len(low_after),
           "fill_squares": fill.count()}, open("fill.json", "w"))
print(len(low_before), len(low_after), fill.count())
