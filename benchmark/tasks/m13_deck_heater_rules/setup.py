import klayout.db as kdb

ly = kdb.Layout()
ly.dbu = 0.001
top = ly.create_cell("TOP")
core, heater, pad = ly.layer(1, 0), ly.layer(11, 0), ly.layer(12, 0)
for y in (0, 20, 40):                                   # three straight waveguides, 60 um long
    top.shapes(core).insert(kdb.DBox(0, y, 60, y + 0.5))
top.shapes(heater).insert(kdb.DBox(5, 2.5, 55, 4.5))      # 2 um above the first core: fine
top.shapes(heater).insert(kdb.DBox(5, 21.5, 55, 23.0))    # 1.5 um wide and 1 um from the second core
top.shapes(heater).insert(kdb.DBox(20, 39.0, 40, 41.0))   # lies across the third core
top.shapes(pad).insert(kdb.DBox(0, 3.0, 6.5, 10))         # overlaps the first heater by 1.5 um in x
top.shapes(pad).insert(kdb.DBox(54.4, 3.0, 62, 10))       # overlaps it by only 0.6 um
top.shapes(pad).insert(kdb.DBox(0, 22, 5.8, 28))          # 0.8 um on the second heater
ly.write("in.gds")
