import klayout.db as kdb

ly = kdb.Layout()
ly.dbu = 0.001
top = ly.create_cell("TOP")
a = ly.create_cell("MMI")
b = ly.create_cell("PADS")
for c, n in ((top, 2), (a, 3), (b, 1)):
    for i in range(n):
        c.shapes(ly.layer(1, 0)).insert(kdb.DBox(i * 3, 0, i * 3 + 2, 1))
        c.shapes(ly.layer(99, 0)).insert(kdb.DText(f"note{i}", i, 5))
a.shapes(ly.layer(2, 0)).insert(kdb.DBox(0, 0, 5, 5))
b.shapes(ly.layer(10, 0)).insert(kdb.DBox(0, 0, 50, 50))        # already on the target layer
b.shapes(ly.layer(41, 0)).insert(kdb.DBox(5, 5, 45, 45))
top.insert(kdb.DCellInstArray(a.cell_index(), kdb.DTrans(kdb.DVector(0, 20))))
top.insert(kdb.DCellInstArray(b.cell_index(), kdb.DTrans(kdb.DVector(100, 0)), kdb.DVector(100, 0), kdb.DVector(0, 0), 3, 1))
ly.write("in.gds")
