pad = layout.cell("PAD")
assert pad is not None, "no cell PAD"
li = layout.find_layer(10, 0)
assert li is not None, "no layer 10/0"
box = pya.Region(pad.shapes(li)).bbox().to_dtype(dbu)
assert box == pya.DBox(-50, -50, 50, 50), f"PAD square {box}"
insts = [i for i in cell.each_inst() if i.cell_index == pad.cell_index()]
assert len(insts) == 1, f"{len(insts)} PAD instances in {cell.name}, expected 1"
t = insts[0].dcplx_trans
assert abs(t.disp.x - 200) < 1e-6 and abs(t.disp.y) < 1e-6, f"PAD placed at {t.disp}"
assert (cell.dbbox() == pya.DBox(150, -50, 250, 50)), f"{cell.name} bbox {cell.dbbox()}"
