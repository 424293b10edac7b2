# ---
# title = "Write your own parametric cell function with the @gf.cell decorator"
# summary = "Defines a reusable parametric device as a function decorated with @gf.cell: it builds a Component from its arguments (here an L-shaped alignment mark with arm length and width in um), gets a unique name from its parameters and is cached (same arguments, same cell). Places two sizes in one top cell."
# kind = "sandbox"
# tags = ["pcell", "parametric cell", "gf.cell", "decorator", "custom component", "function", "alignment mark"]
# apis = ["gdsfactory.cell", "gdsfactory.Component.add_polygon"]
# [expect]
# files = ["marks.gds"]
# cells = ["MARKS"]
# layers = ["2/0"]
# stdout = ["cached True", "names differ True"]
# bbox = {"MARKS" = [0.0, 0.0, 60.0, 20.0]}
# ---
import gdsfactory as gf

gf.gpdk.PDK.activate()


@gf.cell
def l_mark(arm: float = 10.0, width: float = 2.0, layer: tuple[int, int] = (2, 0)) -> gf.Component:
    """L-shaped mark: two arms of length `arm` and width `width` (um) meeting at the origin."""
    c = gf.Component()
    c.add_polygon([(0, 0), (arm, 0), (arm, width), (width, width), (width, arm), (0, arm)], layer=layer)
    return c


small = l_mark(arm=10)
big = l_mark(arm=20, width=4)
top = gf.Component("MARKS")
top << small
ref = top << big
ref.movex(40)
top.write_gds("marks.gds", with_metadata=False)

print(f"{small.name} / {big.name}: cached {l_mark(arm=10) is small}, names differ {small.name != big.name}")
