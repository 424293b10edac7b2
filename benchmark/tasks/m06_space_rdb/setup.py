import klayout.db as kdb

ly = kdb.Layout()
ly.dbu = 0.001
top = ly.create_cell("TOP")
l1 = ly.layer(1, 0)
x = 0.0
for gap in [0.1, 0.2, 0.25, 0.3, 0.5, 1.0]:
    top.shapes(l1).insert(kdb.DBox(x, 0, x + 2, 10))
    x += 2 + gap
top.shapes(l1).insert(kdb.DBox(x, 0, x + 2, 10))
sub = ly.create_cell("PAIR")
sub.shapes(l1).insert(kdb.DBox(0, 0, 5, 1))
sub.shapes(l1).insert(kdb.DBox(0, 1.15, 5, 2.15))
top.insert(kdb.DCellInstArray(sub.cell_index(), kdb.DTrans(kdb.DVector(0, 20))))
top.shapes(ly.layer(2, 0)).insert(kdb.DBox(0, 40, 1, 41))
top.shapes(ly.layer(2, 0)).insert(kdb.DBox(1.05, 40, 2, 41))
ly.write("in.gds")
