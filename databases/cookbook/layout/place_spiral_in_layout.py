# ---
# title = "Add a spiral delay line to the open layout"
# summary = "Builds a double spiral waveguide (gf.components.spiral) with an inner straight length in um and a number of loops, names the cell and writes it without metadata; pic-copilot places it in the open layout. Prints the total waveguide length."
# kind = "new"
# tags = ["spiral", "delay line", "place", "insert", "open layout", "long waveguide"]
# apis = ["gdsfactory.components.spiral", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["spiral_new.gds"]
# cells = ["SPIRAL_300"]
# layers = ["1/0"]
# stdout = ["SPIRAL_300: total length"]
# ---
import gdsfactory as gf

inner_length = 300.0    # um
n_loops = 4
cell_name = "SPIRAL_300"

gf.gpdk.PDK.activate()

sp = gf.components.spiral(length=inner_length, n_loops=n_loops)
c = gf.Component(cell_name)
ref = c << sp
c.add_ports(ref.ports)
c.write_gds("spiral_new.gds", with_metadata=False)
print(f"{cell_name}: total length {sp.info['length']:.1f} um")
