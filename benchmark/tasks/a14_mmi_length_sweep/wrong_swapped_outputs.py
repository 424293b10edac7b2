"""1x2 MMI length sweep: layout with labels and a port table."""
import csv

import gdsfactory as gf

gf.gpdk.PDK.activate()

LENGTHS = [4.0, 5.5, 7.0, 8.5]
PITCH = 30.0
chip = gf.Component("MMI_SWEEP")
rows = []
for i, length in enumerate(LENGTHS):
    mmi = gf.components.mmi1x2(length_mmi=length)
    ref = chip << mmi
    ref.move((0, i * PITCH))
    p_in = ref.ports["o1"]
    p_up = ref.ports["o3"]
    p_lo = ref.ports["o2"]
    chip.add_label(f"L{length:.1f}", position=p_in.center, layer=(10, 0))
    rows.append([
        length,
        p_in.center[0], p_in.center[1],
        p_up.center[0], p_up.center[1],
        p_lo.center[0], p_lo.center[1],
        ref.dbbox().width(),
    ])

chip.write_gds("mmi_sweep.gds")
with open("mmi_sweep.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["length_um", "input_x", "input_y", "out_upper_x", "out_upper_y", "out_lower_x",
                "out_lower_y", "total_width_um"])
    w.writerows(rows)
for r in rows:
    print(r)
