# ---
# title = "Align components edge to edge using their bounding boxes"
# summary = "Positions references by their bounding-box edges and centers instead of their origins: sets ref.xmin so a device starts a gap in um after another one's xmax, and ref.y to line up centers. Useful to butt devices side by side or stack them with a fixed spacing."
# kind = "sandbox"
# tags = ["align", "bounding box", "xmin", "xmax", "spacing", "place next to", "side by side"]
# apis = ["gdsfactory.Component.xmin", "gdsfactory.Component.xmax", "gdsfactory.Component.y"]
# [expect]
# files = ["aligned.gds"]
# cells = ["SIDE_BY_SIDE"]
# layers = ["1/0", "49/0"]
# stdout = ["pad xmin 35.5 um", "gap 5.0 um", "centers y 0.0 / 0.0"]
# ---
import gdsfactory as gf

gap = 5.0     # um between the MMI's right edge and the pad's left edge
cell_name = "SIDE_BY_SIDE"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
mmi = c << gf.components.mmi1x2(length_mmi=20.5)
pad = c << gf.components.pad(size=(30, 30))
pad.xmin = mmi.xmax + gap     # left edge of the pad a gap after the MMI's right edge
pad.y = mmi.y                 # same vertical center
c.write_gds("aligned.gds", with_metadata=False)

print(f"{cell_name}: pad xmin {pad.xmin:.1f} um, gap {pad.xmin - mmi.xmax:.1f} um, centers y {mmi.y:.1f} / {pad.y:.1f}")
