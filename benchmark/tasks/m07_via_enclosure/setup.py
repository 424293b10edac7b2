import klayout.db as kdb

ly = kdb.Layout()
ly.dbu = 0.001
top = ly.create_cell("TOP")
metal, via = ly.layer(2, 0), ly.layer(3, 0)
top.shapes(metal).insert(kdb.DBox(0, 0, 20, 4))
top.shapes(metal).insert(kdb.DBox(30, 0, 34, 4))
vias = [
    (2, 2),      # fine
    (10, 2),     # fine
    (19.75, 2),  # 0.05 µm to the right edge
    (0.2, 0.2),  # 0.0 µm on two sides (corner)
    (32, 3.65),  # 0.15 µm to the top
    (32, 1.0),   # fine
    (50, 2),     # not on metal at all
    (18, 2),     # fine: 1.75 µm
]
for x, y in vias:
    top.shapes(via).insert(kdb.DBox(x - 0.2, y - 0.2, x + 0.2, y + 0.2))
ly.write("in.gds")
