import json
import os

area = 0
it = cell.begin_shapes_rec(layout.layer(1, 0))
while not it.at_end():
    area += it.shape().polygon.area()
    it.next()
json.dump({"area_um2": area * dbu * dbu}, open(os.path.join(workdir, "area.json"), "w"))
