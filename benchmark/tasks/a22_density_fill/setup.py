import klayout.db as kdb

ly = kdb.Layout()
ly.dbu = 0.001
top = ly.create_cell("CHIP")
top.shapes(ly.layer(99, 0)).insert(kdb.DBox(0, 0, 100, 60))
wg = ly.layer(1, 0)
top.shapes(wg).insert(kdb.DBox(0, 29.75, 100, 30.25))            # a bus across the die
for x in (5, 25, 45):
    top.shapes(wg).insert(kdb.DBox(x, 2, x + 12, 18))             # dense blocks in the lower row
top.shapes(wg).insert(kdb.DBox(66, 44, 74, 52))
ly.write("chip.gds")
