"""Cross-section width sweep: straights + U-bends with core and cladding, labels and areas."""
import json

import gdsfactory as gf
import klayout.db as kdb

gf.gpdk.PDK.activate()
WIDTHS = [0.4, 0.5, 0.6, 0.8, 1.0]
PITCH, LENGTH, RADIUS = 50.0, 100.0, 15.0

chip = gf.Component("XS_SWEEP")
windows = {}
for i, w in enumerate(WIDTHS):
    xs = gf.cross_section.cross_section(
        width=w, layer=(1, 0), sections=[gf.Section(width=w + 1.0, layer=(111, 0), name="clad")]
    )
    variant = gf.Component(f"XS_W{int(round(w * 1000))}")
    s = variant << gf.components.straight(length=LENGTH, cross_section=xs)
    b = variant << gf.components.bend_circular(radius=RADIUS, angle=180, cross_section=xs)
    b.connect("o1", s.ports["o2"])
    ref = chip << variant
    ref.move((0, i * PITCH))
    name = f"W{int(round(w * 1000))}"
    chip.add_label(name, position=(0, i * PITCH), layer=(10, 0))
    windows[name] = (i * PITCH - 10, i * PITCH + 40)

chip.write_gds("xs_sweep.gds")

ly = kdb.Layout()
ly.read("xs_sweep.gds")
top = ly.top_cell()
core = kdb.Region(top.begin_shapes_rec(ly.layer(1, 0))).merged()
clad = kdb.Region(top.begin_shapes_rec(ly.layer(111, 0))).merged()
report = {}
for name, (y0, y1) in windows.items():
    win = kdb.Region(kdb.DBox(-50, y0, LENGTH + RADIUS + 50, y1).to_itype(ly.dbu))
    report[name] = {
        "core_area_um2": (core & win).area() * ly.dbu ** 2,
        "clad_area_um2": (clad & win).area() * ly.dbu ** 2,
    }
with open("xs_sweep.json", "w") as f:
    json.dump(report, f, indent=1)
print(report)
