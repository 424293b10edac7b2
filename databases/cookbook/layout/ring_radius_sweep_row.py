# ---
# title = "Row of ring resonators sweeping the radius, each cell named after its radius"
# summary = "Builds one all-pass ring per radius value (um) with the same gap, names each ring cell after its radius, places them in a row with a fixed edge-to-edge spacing in um and adds a polygon text label with the radius under each. A typical test-chip sweep."
# kind = "sandbox"
# tags = ["sweep", "ring", "radius sweep", "test chip", "row", "labels", "variants"]
# apis = ["gdsfactory.components.ring_single", "gdsfactory.components.text", "gdsfactory.Component.copy", "gdsfactory.Component.xmin"]
# [expect]
# files = ["ring_sweep.gds"]
# cells = ["RING_SWEEP", "RING_R5", "RING_R10", "RING_R20"]
# layers = ["1/0", "66/0"]
# stdout = ["3 rings", "R5 R10 R20"]
# ---
import gdsfactory as gf

radii = [5, 10, 20]     # um
gap = 0.2               # um
spacing = 20.0          # um between neighbouring rings
cell_name = "RING_SWEEP"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
x = 0.0
names = []
for r in radii:
    ring = gf.components.ring_single(radius=r, gap=gap).copy()   # a copy can be renamed
    ring.name = f"RING_R{r}"
    ref = c << ring
    ref.xmin = x
    label = c << gf.components.text(text=f"R{r}", size=5, layer=(66, 0))
    label.xmin, label.ymax = ref.xmin, ref.ymin - 3   # 3 um under the ring
    x = ref.xmax + spacing
    names.append(ring.name.split("_")[1])
c.write_gds("ring_sweep.gds", with_metadata=False)

print(f"{cell_name}: {len(radii)} rings ({' '.join(names)}), width {c.xsize:.1f} um")
