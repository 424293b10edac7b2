"""Width and space DRC on 1/0: markers in the layout, a report database and a JSON summary."""
import json
import os

src = pya.Region(cell.begin_shapes_rec(layout.layer(1, 0)))


def um(x):
    return int(round(x / dbu))


checks = {
    "width": (src.width_check(um(0.4)), layout.layer(99, 0)),
    "space": (src.space_check(um(0.3)), layout.layer(99, 0)),
}

rdb = pya.ReportDatabase("DRC 1/0")
rdb.top_cell_name = cell.name
rcell = rdb.create_cell(cell.name)
summary = {}
for name, (errors, marker_layer) in checks.items():
    # markers in the layout
    cell.shapes(marker_layer).insert(errors.polygons())
    # report database items
    cat = rdb.create_category(name)
    cat.description = f"{name} violations on 1/0"
    for ep in errors.each():
        item = rdb.create_item(rcell.rdb_id(), cat.rdb_id())
        item.add_value(ep.to_dtype(dbu))
    summary[name] = errors.count()

rdb.save(os.path.join(workdir, "drc.lyrdb"))
with open(os.path.join(workdir, "drc.json"), "w") as f:
    json.dump(summary, f)
print(summary)
