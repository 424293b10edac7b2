import klayout.db as kdb

ly = kdb.Layout()
ly.dbu = 0.001
top = ly.create_cell("CHIP")
wg, metal, via = ly.layer(1, 0), ly.layer(2, 0), ly.layer(3, 0)
top.shapes(ly.layer(99, 0)).insert(kdb.DBox(0, 0, 200, 100))       # chip outline: 4 x 2 tiles
# dense waveguide block in tile (0, 0): fine widths and spaces, plus two narrow ones
for i in range(10):
    top.shapes(wg).insert(kdb.DBox(2 + i * 4, 2, 2 + i * 4 + 2, 45))
top.shapes(wg).insert(kdb.DBox(44, 2, 44.3, 45))                     # width 0.3
top.shapes(wg).insert(kdb.DBox(46, 2, 46.35, 45))                    # width 0.35
# tile (1, 0): two waveguides 0.2 apart, one 0.35 apart, plenty of area
top.shapes(wg).insert(kdb.DBox(55, 5, 95, 10))
top.shapes(wg).insert(kdb.DBox(55, 10.2, 95, 15))
top.shapes(wg).insert(kdb.DBox(55, 15.35, 95, 20))
# a repeated cell in the upper row, tiles (0, 1) and (1, 1)
unit = ly.create_cell("UNIT")
unit.shapes(wg).insert(kdb.DBox(0, 0, 20, 20))
unit.shapes(wg).insert(kdb.DBox(20.25, 0, 25, 20))                  # space 0.25 -> one error per copy
top.insert(kdb.DCellInstArray(unit.cell_index(), kdb.DTrans(kdb.DVector(5, 55)), kdb.DVector(50, 0), kdb.DVector(0, 0), 2, 1))
# metal/via in tile (2, 0), which otherwise has little 1/0
top.shapes(metal).insert(kdb.DBox(110, 10, 140, 20))
for x, ok in [(115, True), (125, True), (139.7, False)]:
    top.shapes(via).insert(kdb.DBox(x - 0.2, 14.8, x + 0.2, 15.2))
top.shapes(via).insert(kdb.DBox(150, 15, 150.4, 15.4))              # via without metal
top.shapes(wg).insert(kdb.DBox(105, 30, 145, 35))                     # 200 µm² = 8 % of the tile
ly.write("chip.gds")
