import csv
import os

pad = layout.cell("PAD")
assert pad is not None, "no cell PAD"
for (l, d), half in (((41, 0), 40), ((46, 0), 35)):
    li = layout.find_layer(l, d)
    assert li is not None and pya.Region(pad.shapes(li)).bbox().to_dtype(dbu) == pya.DBox(-half, -half, half, half), f"PAD {l}/{d}"
xs = [-350 + 100 * i for i in range(8)]
expected = {f"P{k + 1}": (x, -240.0) for k, x in enumerate(xs)}
expected.update({f"P{k + 9}": (x, 240.0) for k, x in enumerate(reversed(xs))})
placed = sorted((round(t.disp.x * dbu, 3), round(t.disp.y * dbu, 3))
                for i in cell.each_inst() if i.cell_index == pad.cell_index() for t in i.cell_inst.each_cplx_trans())
assert placed == sorted(expected.values()), f"pad positions {placed}"
labels = {}
for s in cell.shapes(layout.find_layer(41, 1)).each():
    if s.is_text():
        labels[s.text.string] = (round(s.text.x * dbu, 3), round(s.text.y * dbu, 3))
assert labels == expected, f"labels {labels}"
rows = {r["name"]: (float(r["x_um"]), float(r["y_um"])) for r in csv.DictReader(open(os.path.join(workdir, "pads.csv")))}
assert rows == expected, f"pads.csv {rows}"
