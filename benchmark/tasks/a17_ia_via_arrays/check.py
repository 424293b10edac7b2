import re

via = layout.cell("VIA")
assert via is not None, "no cell VIA"
l3 = layout.find_layer(3, 0)
vb = pya.Region(via.shapes(l3)).bbox().to_dtype(dbu)
assert vb == pya.DBox(-0.2, -0.2, 0.2, 0.2), f"VIA square {vb}"
insts = [i for i in cell.each_inst() if i.cell_index == via.cell_index()]
assert len(insts) == 4, f"{len(insts)} VIA instances: one array per pad (4 pads)"
centres = sorted((round(t.disp.x * dbu, 3), round(t.disp.y * dbu, 3)) for i in insts for t in i.cell_inst.each_cplx_trans())
# n = floor((pad - 2 * 0.3 - 0.4) / 1.0) + 1 per axis, grid centred on the pad:
# 10x10 -> 10x10; 5.4x3 -> 5x3; 1.2x1.2 -> 1x1; 2x20 -> 2x20
exp = sorted([(0.5 + i, 0.5 + j) for i in range(10) for j in range(10)] +
             [(20.7 + i, 0.5 + j) for i in range(5) for j in range(3)] +
             [(40.6, 0.6)] + [(60.5 + i, 0.5 + j) for i in range(2) for j in range(20)])
assert len(centres) == len(exp), f"{len(centres)} vias, expected {len(exp)}"
assert centres == exp, "via positions are not the centred grids"
nums = re.findall(r"\d+", outcome.get("stdout") or "")
assert str(len(exp)) in nums, f"print the total ({len(exp)}): {outcome.get('stdout')!r}"
