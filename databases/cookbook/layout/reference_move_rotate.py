# ---
# title = "Place a component rotated by 90 degrees at a chosen position"
# summary = "Adds a reference (instance) of a component to a top cell with c << component, rotates it by an angle in degrees about the origin and then moves it by (dx, dy) in um; ports move with the reference. Use it to orient a device before routing to it."
# kind = "sandbox"
# tags = ["reference", "instance", "rotate", "move", "place", "position", "orientation", "transform"]
# apis = ["gdsfactory.Component.add_ref", "gdsfactory.Component.rotate", "gdsfactory.Component.move"]
# [expect]
# files = ["rotated.gds"]
# cells = ["PLACED_MMI"]
# layers = ["1/0"]
# stdout = ["o1 at (100.00, 40.00) facing 270", "o2 at (99.38, 65.50) facing 90"]
# bbox = {"PLACED_MMI" = [98.75, 40.0, 101.25, 65.5]}
# ---
import gdsfactory as gf

angle = 90.0            # degrees, counter-clockwise about (0, 0)
offset = (100.0, 50.0)  # um, moved after rotating
cell_name = "PLACED_MMI"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
mmi = c << gf.components.mmi1x2()   # a reference: the MMI cell is not copied
mmi.rotate(angle)                   # input o1 now faces south
mmi.move(offset)
c.add_ports(mmi.ports)
c.write_gds("rotated.gds", with_metadata=False)

for name in ("o1", "o2"):
    p = c.ports[name]
    print(f"{name} at ({p.center[0]:.2f}, {p.center[1]:.2f}) facing {p.orientation:.0f}")
