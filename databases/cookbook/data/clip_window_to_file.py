# ---
# title = "Cut out a rectangular window of a layout and save it as its own file"
# summary = "Reads a layout and clips the top cell to a window given in um (Layout.clip keeps the hierarchy: cells fully inside are re-used, cells crossing the edge get clipped variants). The clip cell is renamed and written alone to clip.gds. Use it to extract a region of interest for a simulation, a review or a bug report."
# kind = "sandbox"
# tags = ["clip", "crop", "cut out", "window", "region of interest", "extract area", "gds"]
# apis = ["pya.Layout.clip", "pya.Layout.rename_cell", "pya.SaveLayoutOptions.select_cell", "pya.DBox", "pya.Layout.write"]
# fixture = "data_chip"
# [expect]
# bbox = {"MMI_REGION" = [90.0, -5.0, 130.0, 5.0]}
# files = ["clip.gds"]
# cells = ["MMI_REGION", "MMI1X2"]
# layers = ["1/0", "3/0"]
# stdout = ["clip MMI_REGION: 40.000 x 10.000 um", "1/0: 7 shapes"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "clip.gds"
WINDOW = (90.0, -5.0, 130.0, 5.0)    # um: xmin, ymin, xmax, ymax
NAME = "MMI_REGION"

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()

ci = layout.clip(top.cell_index(), db.DBox(*WINDOW))   # new cell holding the clipped content
layout.rename_cell(ci, NAME)
clip = layout.cell(ci)

opts = db.SaveLayoutOptions()
opts.select_cell(ci)                                    # write only the clip and what it uses
layout.write(OUTPUT, opts)

b = clip.dbbox()
print(f"clip {NAME}: {b.width():.3f} x {b.height():.3f} um")
for li in layout.layer_indexes():
    info = layout.get_info(li)
    n = 0
    it = clip.begin_shapes_rec(li)
    while not it.at_end():
        n += 1
        it.next()
    if n:
        print(f"{info.layer}/{info.datatype}: {n} shapes")
print(f"wrote {OUTPUT}")
