import klayout.db as kdb

ly = kdb.Layout()
ly.dbu = 0.001
top = ly.create_cell("TOP")
m1, via, m2 = ly.layer(41, 0), ly.layer(43, 0), ly.layer(45, 0)
# stack A: generous enclosures (via 0.5 um, M1 margin 0.4, M2 margin 0.5)
top.shapes(via).insert(kdb.DBox(0, 0, 0.5, 0.5))
top.shapes(m1).insert(kdb.DBox(-0.4, -0.4, 0.9, 0.9))
top.shapes(m2).insert(kdb.DBox(-0.5, -0.5, 1.0, 1.0))
# stack B: M1 margin only 0.1 um on the right, M2 margin 0.25 um at the top
top.shapes(via).insert(kdb.DBox(5, 0, 5.5, 0.5))
top.shapes(m1).insert(kdb.DBox(4.6, -0.4, 5.6, 0.9))
top.shapes(m2).insert(kdb.DBox(4.5, -0.5, 6.0, 0.75))
# stack C: the via hangs 0.2 um out of M2
top.shapes(via).insert(kdb.DBox(10, 0, 10.5, 0.5))
top.shapes(m1).insert(kdb.DBox(9.6, -0.4, 10.9, 0.9))
top.shapes(m2).insert(kdb.DBox(9.5, -0.5, 10.3, 1.0))
# stack D: an L-shaped M1 whose inner corner is 0.14 um from the via's corner (diagonal only)
top.shapes(via).insert(kdb.DBox(20.4, 0.4, 20.9, 0.9))
top.shapes(m1).insert(kdb.DPolygon([kdb.DPoint(*p) for p in ((20, 0), (23, 0), (23, 1), (21, 1), (21, 3), (20, 3))]))
top.shapes(m2).insert(kdb.DBox(19.5, -0.5, 21.5, 1.5))
ly.write("in.gds")
