"""Hierarchy report as JSON, then flatten cell VIA into every parent."""
import json
import os


def report(top):
    out = {}
    todo = [top.cell_index()] + list(top.each_child_cell())
    seen = set()
    # walk the whole tree below the current cell
    stack = [top.cell_index()]
    while stack:
        ci = stack.pop()
        if ci in seen:
            continue
        seen.add(ci)
        c = layout.cell(ci)
        children = {}
        for inst in c.each_inst():
            name = layout.cell(inst.cell_index).name
            children[name] = children.get(name, 0) + inst.size()
            stack.append(inst.cell_index)
        own = sum(c.shapes(li).size() for li in layout.layer_indexes())
        b = c.dbbox()
        out[c.name] = {"children": children, "own_shapes": own, "bbox_um": [b.left, b.bottom, b.right, b.top]}
    return out


data = report(cell)
with open(os.path.join(workdir, "hierarchy.json"), "w") as f:
    json.dump(data, f, indent=1)

via = layout.cell("VIA")
copied = 0
for parent_index in list(via.each_parent_cell()):
    parent = layout.cell(parent_index)
    for inst in list(parent.each_inst()):
        if inst.cell_index != via.cell_index():
            continue
        n_own = sum(via.shapes(li).size() for li in layout.layer_indexes())
        copied += n_own * inst.size()
        inst.flatten()
layout.delete_cell(via.cell_index())
print(f"copied {copied} shapes")
