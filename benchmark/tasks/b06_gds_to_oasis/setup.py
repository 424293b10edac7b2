import klayout.db as kdb

ly = kdb.Layout()
ly.dbu = 0.001
top = ly.create_cell("CHIP")
a = ly.create_cell("BLOCK_A")
b = ly.create_cell("BLOCK_B")
a.shapes(ly.layer(1, 0)).insert(kdb.DBox(0, 0, 10, 0.5))
a.shapes(ly.layer(2, 0)).insert(kdb.DPolygon([kdb.DPoint(0, 0), kdb.DPoint(5, 0), kdb.DPoint(0, 5)]))
b.shapes(ly.layer(1, 0)).insert(kdb.DPath([kdb.DPoint(0, 0), kdb.DPoint(20, 0), kdb.DPoint(20, 20)], 0.5))
b.shapes(ly.layer(10, 0)).insert(kdb.DText("PORT_B", 0, 0))
b.insert(kdb.DCellInstArray(a.cell_index(), kdb.DTrans(1, False, 30, 0)))
top.insert(kdb.DCellInstArray(a.cell_index(), kdb.DTrans(kdb.DVector(0, 0)), kdb.DVector(20, 0), kdb.DVector(0, 10), 3, 2))
top.insert(kdb.DCellInstArray(b.cell_index(), kdb.DTrans(kdb.DVector(0, 100))))
top.shapes(ly.layer(10, 0)).insert(kdb.DText("CHIP", -5, -5))
ly.write("in.gds")
