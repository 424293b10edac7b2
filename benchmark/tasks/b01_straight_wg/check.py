import klayout.db as kdb

ly = kdb.Layout()
ly.read("straight.gds")
tops = [c.name for c in ly.top_cells()]
assert tops == ["WG25"], f"top cells {tops}, expected ['WG25']"
top = ly.top_cell()
li = ly.find_layer(1, 0)
assert li is not None, "no layer 1/0"
reg = kdb.Region(top.begin_shapes_rec(li)).merged()
box = reg.bbox().to_dtype(ly.dbu)
assert abs(box.width() - 25) < 1e-3 and abs(box.height() - 0.6) < 1e-3, f"waveguide bbox {box}"
assert abs(reg.area() * ly.dbu ** 2 - 15.0) < 1e-3, f"waveguide area {reg.area() * ly.dbu ** 2}"
