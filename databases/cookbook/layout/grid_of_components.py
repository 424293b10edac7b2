# ---
# title = "Arrange different components on a grid with fixed spacing"
# summary = "Lays out a list of different components in rows and columns with gf.grid (shape = (rows, columns), spacing in um between bounding boxes, centers aligned) and puts the grid in a named top cell. Use it for a test chip of assorted devices; gf.pack packs them densely instead."
# kind = "sandbox"
# tags = ["grid", "layout grid", "arrange", "test chip", "spacing", "rows and columns", "tiling"]
# apis = ["gdsfactory.grid", "gdsfactory.components.mmi1x2", "gdsfactory.components.ring_single"]
# [expect]
# files = ["device_grid.gds"]
# cells = ["DEVICE_GRID"]
# layers = ["1/0"]
# stdout = ["4 devices in 2 x 2"]
# bbox = {"DEVICE_GRID" = [-15.0, 14.65, 70.0, 58.6]}
# ---
import gdsfactory as gf

spacing = (10.0, 10.0)    # um between neighbours (x, y)
shape = (2, 2)            # rows, columns
cell_name = "DEVICE_GRID"

gf.gpdk.PDK.activate()

devices = [
    gf.components.mmi1x2(),
    gf.components.mmi2x2(),
    gf.components.ring_single(radius=10),
    gf.components.coupler(gap=0.3),
]
grid = gf.grid(devices, spacing=spacing, shape=shape)
c = gf.Component(cell_name)
c << grid
c.write_gds("device_grid.gds", with_metadata=False)

print(f"{cell_name}: {len(devices)} devices in {shape[0]} x {shape[1]}, size {c.xsize:.1f} x {c.ysize:.1f} um")
