# ---
# title = "Bar chart of the area per layer of a layout, saved as PNG"
# summary = "Reads a layout, computes the merged area of each layer in um2 (hierarchy flattened) and plots it as a bar chart with matplotlib (Agg backend, no display needed) on a log scale, saved to layer_areas.png at 150 dpi. Layers without area (text-only) are left out."
# kind = "sandbox"
# tags = ["plot", "chart", "bar chart", "matplotlib", "png", "area", "per layer", "figure", "visualise"]
# apis = ["pya.Region", "pya.Region.area", "pya.Cell.begin_shapes_rec", "pya.Layout.get_info"]
# fixture = "data_chip"
# [expect]
# files = ["layer_areas.png"]
# stdout = ["5 layers plotted", "largest 99/0"]
# ---
import matplotlib

matplotlib.use("Agg")            # render to file, no display
import matplotlib.pyplot as plt
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "layer_areas.png"

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()

names, areas = [], []
for li in sorted(layout.layer_indexes(), key=lambda i: (layout.get_info(i).layer, layout.get_info(i).datatype)):
    info = layout.get_info(li)
    area = db.Region(top.begin_shapes_rec(li)).area() * layout.dbu ** 2    # merged, um2
    if area > 0:
        names.append(f"{info.layer}/{info.datatype}")
        areas.append(area)

fig, ax = plt.subplots(figsize=(6, 4))
ax.bar(names, areas, color="tab:blue")
ax.set_yscale("log")
ax.set_xlabel("layer/datatype")
ax.set_ylabel("merged area (um$^2$)")
ax.set_title(f"{top.name}: area per layer")
fig.tight_layout()
fig.savefig(OUTPUT, dpi=150)
print(f"wrote {OUTPUT}: {len(names)} layers plotted, largest {names[areas.index(max(areas))]} ({max(areas):.1f} um2)")
