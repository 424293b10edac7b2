ring = layout.cell("RING")
assert ring is not None, "no cell RING"
insts = [i for i in cell.each_inst() if i.cell_index == ring.cell_index()]
assert len(insts) == 1 and insts[0].dcplx_trans.disp == pya.DVector(0, 0), "RING must be placed once at the origin"
li = layout.find_layer(1, 0)
rr = pya.Region(ring.shapes(li)).merged()
assert rr.count() == 1 and list(rr.each())[0].holes() == 1, "RING must hold one annulus"
b = rr.bbox().to_dtype(dbu)
assert abs(b.width() - 24.5) < 0.02 and abs(b.center().y - 12.7) < 0.01 and abs(b.center().x) < 0.01, f"ring bbox {b}"
pts = list(rr.each())[0].num_points_hull()
assert pts >= 256, f"ring outline has {pts} points"
area = rr.area() * dbu * dbu
exp = 3.141592653589793 * ((12.25) ** 2 - (11.75) ** 2)
assert abs(area - exp) / exp < 0.005, f"ring area {area:.3f}, expected {exp:.3f}"
bus = pya.Region(cell.shapes(li)).merged()
assert bus.bbox().to_dtype(dbu) == pya.DBox(-20, -0.25, 20, 0.25), f"bus {bus.bbox().to_dtype(dbu)}"
allw = pya.Region(cell.begin_shapes_rec(li))
assert not allw.space_check(250).is_empty() and allw.space_check(150).is_empty(), "gap is not 0.2 µm"
