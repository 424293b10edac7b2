import klayout.db as kdb

ly = kdb.Layout()
ly.dbu = 0.001
top = ly.create_cell("TOP")
etch = ly.layer(6, 0)
# grating teeth: 0.3 x 0.3 (0.09 um2, too small), 0.4 x 0.4 (0.16), two 0.3 x 0.3 touching (0.18 as one)
for box in ((0, 0, 0.3, 0.3), (1, 0, 1.4, 0.4), (2, 0, 2.3, 0.3), (2.3, 0, 2.6, 0.3)):
    top.shapes(etch).insert(kdb.DBox(*box))
# etched frames with islands of 0.6 x 0.6 (0.36 um2, too small) and 1 x 1 um (1.0)
for x, a in ((5, 0.6), (10, 1.0)):
    frame = kdb.DPolygon(kdb.DBox(x, 0, x + 3, 3))
    frame.insert_hole(kdb.DBox(x + 1.5 - a / 2, 1.5 - a / 2, x + 1.5 + a / 2, 1.5 + a / 2))
    top.shapes(etch).insert(frame)
# a comb with 0.1 um (too narrow) and 0.2 um slots between 0.5 um fingers
comb = [(15, 0), (16.8, 0), (16.8, 2), (16.3, 2), (16.3, 0.5), (16.1, 0.5), (16.1, 2), (15.6, 2), (15.6, 0.5),
        (15.5, 0.5), (15.5, 2), (15, 2)]
top.shapes(etch).insert(kdb.DPolygon([kdb.DPoint(x, y) for x, y in comb]))
# on 7/0 (not checked): a tiny square
top.shapes(ly.layer(7, 0)).insert(kdb.DBox(20, 0, 20.2, 0.2))
ly.write("in.gds")
