import klayout.db as kdb

ly = kdb.Layout()
ly.read("in.gds")
ly.write("out.oas")
