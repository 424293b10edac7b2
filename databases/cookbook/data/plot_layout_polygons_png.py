# ---
# title = "Plot the polygons of selected layers of a layout to a PNG with matplotlib"
# summary = "Reads a layout, flattens the chosen layers of the top cell into polygons (um coordinates) and draws them as filled patches, one colour per layer, with equal axis scaling, saved to layout.png. A quick picture of a design without KLayout's viewer; for large layouts restrict LAYERS or the WINDOW (um)."
# kind = "sandbox"
# tags = ["plot", "picture", "image", "png", "matplotlib", "polygons", "render", "screenshot", "visualise"]
# apis = ["pya.Region", "pya.Region.each", "pya.Polygon.to_dtype", "pya.DPolygon.each_point_hull", "pya.Cell.begin_shapes_rec"]
# fixture = "data_chip"
# [expect]
# files = ["layout.png"]
# stdout = ["1/0: 13 polygons", "3/0: 2 polygons", "layout.png"]
# ---
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import Polygon as Patch
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "layout.png"
LAYERS = {(1, 0): "tab:blue", (3, 0): "tab:orange"}     # layer -> colour
WINDOW = (-20.0, -10.0, 130.0, 10.0)                    # um: xmin, ymin, xmax, ymax (None = everything)

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()

fig, ax = plt.subplots(figsize=(8, 3))
for (l, d), colour in LAYERS.items():
    li = layout.find_layer(l, d)
    if li is None:
        continue
    region = db.Region(top.begin_shapes_rec(li)).merged()     # flattened and merged
    if WINDOW:
        box = db.DBox(*WINDOW).to_itype(layout.dbu)           # um -> dbu
        region = region & db.Region(box)
    n = 0
    for poly in region.each():
        pts = [(p.x, p.y) for p in poly.to_dtype(layout.dbu).each_point_hull()]   # um
        ax.add_patch(Patch(pts, closed=True, facecolor=colour, edgecolor="black", linewidth=0.3, alpha=0.7))
        n += 1
    print(f"{l}/{d}: {n} polygons")
ax.autoscale_view()
ax.set_aspect("equal")
ax.set_xlabel("x (um)")
ax.set_ylabel("y (um)")
fig.tight_layout()
fig.savefig(OUTPUT, dpi=200)
print(f"wrote {OUTPUT}")
