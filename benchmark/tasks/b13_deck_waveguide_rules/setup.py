import klayout.db as kdb

ly = kdb.Layout()
ly.dbu = 0.001
top = ly.create_cell("TOP")
core, other = ly.layer(1, 0), ly.layer(2, 0)
y = 0.0
for w in (0.5, 0.4, 0.45, 0.3):            # 0.4 and 0.3 are too narrow, 0.45 is legal
    top.shapes(core).insert(kdb.DBox(0, y, 30, y + w))
    y += w + 1.0
for gap in (0.3, 0.2, 0.25):                 # 0.2 is too close, 0.25 is legal
    top.shapes(core).insert(kdb.DBox(0, y, 30, y + 0.5))
    top.shapes(core).insert(kdb.DBox(0, y + 0.5 + gap, 30, y + 1.0 + gap))
    y += 2.5
# two tapers' tips meeting corner to corner, 0.2 um apart on the diagonal (0.12 x 0.16)
top.shapes(core).insert(kdb.DBox(40, 0, 45, 0.5))
top.shapes(core).insert(kdb.DBox(45.12, 0.66, 50, 1.16))
# a narrow line and a close pair on 2/0: not the core layer
top.shapes(other).insert(kdb.DBox(40, 10, 50, 10.2))
top.shapes(other).insert(kdb.DBox(40, 10.3, 50, 10.8))
ly.write("in.gds")
