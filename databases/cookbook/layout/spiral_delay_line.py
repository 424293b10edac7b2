# ---
# title = "Compact spiral delay line and its total waveguide length"
# summary = "Builds a double spiral (spiral in, spiral out) for an optical delay line or a loss test structure; the inner straight length and the loop spacing in um and the number of loops set its size. Prints the total waveguide length (component info 'length') so the delay can be checked."
# kind = "sandbox"
# tags = ["spiral", "delay line", "long waveguide", "cutback", "propagation loss", "loops"]
# apis = ["gdsfactory.components.spiral", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["spiral.gds"]
# cells = ["SPIRAL_DELAY"]
# layers = ["1/0"]
# bbox = {"SPIRAL_DELAY" = [-46.25, -20.25, 522.25, 36.25]}
# stdout = ["total length 5840.74 um"]
# ---
import gdsfactory as gf

inner_length = 500.0   # um, length of the straight section in the middle
spacing = 4.0          # um, pitch between loops
n_loops = 5
cell_name = "SPIRAL_DELAY"

gf.gpdk.PDK.activate()

spiral = gf.components.spiral(length=inner_length, spacing=spacing, n_loops=n_loops)
c = gf.Component(cell_name)
ref = c << spiral
c.add_ports(ref.ports)
c.write_gds("spiral.gds", with_metadata=False)

print(f"{cell_name}: total length {spiral.info['length']:.2f} um, footprint {c.xsize:.1f} x {c.ysize:.1f} um")
