# ---
# title = "Write a component to OASIS (.oas) instead of GDS"
# summary = "Saves a component as OASIS, the compact successor of GDSII, with Component.write('name.oas') (the format follows the extension), and reads it back with klayout.db to confirm the top cell and layers. Use GDS when a tool needs GDSII."
# kind = "sandbox"
# tags = ["oasis", "oas", "write", "export", "file format", "compact layout file"]
# apis = ["gdsfactory.Component.write", "pya.Layout.read"]
# [expect]
# files = ["ring.oas"]
# cells = ["RING_OAS"]
# layers = ["1/0"]
# stdout = ["read back RING_OAS from ring.oas"]
# ---
import gdsfactory as gf
import klayout.db as kdb

cell_name = "RING_OAS"

gf.gpdk.PDK.activate()

c = gf.components.ring_single(radius=8).copy()
c.name = cell_name
c.write("ring.oas")                         # OASIS, chosen by the file extension

check = kdb.Layout()
check.read("ring.oas")
layers = sorted((check.get_info(i).layer, check.get_info(i).datatype) for i in check.layer_indexes())
print(f"read back {check.top_cell().name} from ring.oas, layers {layers}")
