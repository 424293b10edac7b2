# ---
# title = "Mirror a component about a horizontal axis to make its mirror image"
# summary = "Places a component twice: once as is and once mirrored about the line y = 0 (dmirror_y), e.g. to make the lower arm of a symmetric circuit from the upper one. Prints where the mirrored bend's output port ends up."
# kind = "sandbox"
# tags = ["mirror", "flip", "reflect", "symmetric", "reference", "mirror image"]
# apis = ["gdsfactory.Component.dmirror_y", "gdsfactory.components.bend_euler"]
# [expect]
# files = ["mirrored.gds"]
# cells = ["BENDS_MIRRORED"]
# layers = ["1/0"]
# stdout = ["original o2 (10.0, 10.0) 90", "mirrored o2 (10.0, -10.0) 270"]
# bbox = {"BENDS_MIRRORED" = [0.0, -10.0, 10.25, 10.0]}
# ---
import gdsfactory as gf

radius = 10.0      # um
cell_name = "BENDS_MIRRORED"

gf.gpdk.PDK.activate()

bend = gf.components.bend_euler(radius=radius)
c = gf.Component(cell_name)
up = c << bend
down = c << bend
down.dmirror_y(0)        # mirror about the horizontal line y = 0
c.write_gds("mirrored.gds", with_metadata=False)

for label, ref in (("original", up), ("mirrored", down)):
    p = ref.ports["o2"]
    print(f"{label} o2 ({p.center[0]:.1f}, {p.center[1]:.1f}) {p.orientation:.0f}")
