import klayout.db as kdb

ly = kdb.Layout()
ly.read("in.gds")
ly.top_cell().flatten(True)
ly.write("out.oas")
