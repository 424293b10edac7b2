# ---
# title = "List every instance of a cell with position, rotation, mirror and array pitch (CSV)"
# summary = "Reads a layout and writes instances.csv with one row per instance record in the top cell (or any PARENT cell): placed cell, x and y in um, rotation in degrees, mirror flag, magnification, the array counts na x nb and the array step vectors a and b in um (1 x 1 for single instances). Use it to review placements or to re-create them in a script."
# kind = "sandbox"
# tags = ["instances", "references", "placements", "array", "pitch", "rotation", "mirror", "csv", "positions"]
# apis = ["pya.Cell.each_inst", "pya.Instance.dcplx_trans", "pya.Instance.is_regular_array", "pya.Instance.na", "pya.Instance.nb", "pya.Instance.da", "pya.Instance.db"]
# fixture = "data_chip"
# [expect]
# csv_rows = {"instances.csv" = 9}
# files = ["instances.csv"]
# csv_columns = {"instances.csv" = ["cell", "x_um", "y_um", "rotation_deg", "mirror", "magnification", "na", "nb", "a_um", "b_um"]}
# stdout = ["9 instance records", "PAD at (700.000, 100.000) r0 array 2x4 (a 0,150 b 150,0)", "HEATER at (400.000, 100.000) r90", "MMI1X2 at (100.000, 254.000) r0 mirrored"]
# ---
import csv

import klayout.db as db

INPUT = "in.gds"
PARENT = None             # None = top cell, or a cell name
OUTPUT = "instances.csv"

layout = db.Layout()
layout.read(INPUT)
parent = layout.top_cell() if PARENT is None else layout.cell(PARENT)

rows = []
for inst in parent.each_inst():
    t = inst.dcplx_trans                      # placement in um (rotation, mirror, magnification)
    if inst.is_regular_array():
        na, nb, a, b = inst.na, inst.nb, inst.da, inst.db      # counts along a and b, step vectors in um
    else:
        na, nb, a, b = 1, 1, db.DVector(), db.DVector()
    rows.append([inst.cell.name, round(t.disp.x, 6), round(t.disp.y, 6), t.angle, t.is_mirror(), t.mag,
                 na, nb, f"{a.x},{a.y}", f"{b.x},{b.y}"])
    arr = f" array {na}x{nb} (a {a.x:g},{a.y:g} b {b.x:g},{b.y:g})" if na * nb > 1 else ""
    mir = " mirrored" if t.is_mirror() else ""
    print(f"{inst.cell.name} at ({t.disp.x:.3f}, {t.disp.y:.3f}) r{t.angle:.0f}{mir}{arr}")

with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["cell", "x_um", "y_um", "rotation_deg", "mirror", "magnification", "na", "nb", "a_um", "b_um"])
    w.writerows(rows)
print(f"wrote {OUTPUT}: {len(rows)} instance records in {parent.name}")
