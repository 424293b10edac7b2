import klayout.db as kdb

with open("out.oas", "rb") as f:
    assert f.read(13) == b"%SEMI-OASIS\r\n", "out.oas is not an OASIS file"


def describe(path):
    ly = kdb.Layout()
    ly.read(path)
    d = {"dbu": round(ly.dbu, 9), "tops": sorted(c.name for c in ly.top_cells())}
    for c in ly.each_cell():
        insts = sorted(f"{ly.cell(i.cell_index).name}@{t}" for i in c.each_inst() for t in i.cell_inst.each_cplx_trans())
        shapes = {}
        for li in ly.layer_indexes():
            info = ly.get_info(li)
            s = sorted(str(x.polygon) if not x.is_text() else str(x.text) for x in c.shapes(li).each())
            if s:
                shapes[f"{info.layer}/{info.datatype}"] = s
        d[c.name] = (insts, shapes)
    return d


a, b = describe("in.gds"), describe("out.oas")
assert a.keys() == b.keys(), f"cells differ: {sorted(a)} vs {sorted(b)}"
for k in a:
    assert a[k] == b[k], f"{k} differs: {a[k]} vs {b[k]}"
