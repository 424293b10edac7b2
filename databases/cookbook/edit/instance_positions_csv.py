# ---
# title = "Export every placement of the child cells (position, rotation, mirror) to CSV"
# summary = "Expands the active cell's instances, arrays included (each_cplx_trans gives one transformation per array element), and writes cell, x_um, y_um, rotation_deg and mirrored per placement to placements.csv in the work folder. Use it for a placement list, pick-and-place or to check an array's pitch."
# kind = "edit"
# tags = ["instances", "placements", "positions", "rotation", "array elements", "csv", "pick and place", "coordinates"]
# apis = ["pya.Cell.each_inst", "pya.Instance.cell_inst", "pya.CellInstArray.each_cplx_trans", "pya.ICplxTrans.to_itrans", "pya.DCplxTrans.angle", "pya.DCplxTrans.is_mirror"]
# fixture = "hier_array"
# [expect]
# files = ["placements.csv"]
# csv_columns = {"placements.csv" = ["cell", "x_um", "y_um", "rotation_deg", "mirrored"]}
# stdout = ["7 placements", "UNIT (30,0) rot 90"]
# ---
import csv

# Parameters
OUT = "placements.csv"

rows = []
for inst in cell.each_inst():
    for t in inst.cell_inst.each_cplx_trans():         # one per array element (integer dbu)
        dt = t.to_itrans(dbu)                          # the same transformation in um
        rows.append([inst.cell.name, round(dt.disp.x, 6), round(dt.disp.y, 6), dt.angle, dt.is_mirror()])
with open(OUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["cell", "x_um", "y_um", "rotation_deg", "mirrored"])
    w.writerows(rows)
print(f"{len(rows)} placements -> {OUT}")
for name, x, y, rot, mir in rows:
    print(f"{name} ({x:g},{y:g}) rot {rot:g}{' mirrored' if mir else ''}")
