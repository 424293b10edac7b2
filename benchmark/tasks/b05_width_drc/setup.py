import klayout.db as kdb

ly = kdb.Layout()
ly.dbu = 0.001
top = ly.create_cell("TOP")
sub = ly.create_cell("SUB")
l1 = ly.layer(1, 0)
for i, w in enumerate([0.2, 0.35, 0.45, 0.5, 1.0]):
    top.shapes(l1).insert(kdb.DBox(i * 10, 0, i * 10 + w, 8))
sub.shapes(l1).insert(kdb.DBox(0, 0, 0.3, 6))
top.insert(kdb.DCellInstArray(sub.cell_index(), kdb.DTrans(kdb.DVector(0, 30))))
ly.write("in.gds")
