# ---
# title = "Regular array of one component as a single arrayed instance (columns x rows)"
# summary = "Places a component as one arrayed reference with add_ref(component, columns, rows, column_pitch, row_pitch) (a GDS AREF: one instance, columns x rows copies, pitches in um). Use it for large regular arrays such as pad fields or test-structure matrices; it keeps the file small."
# kind = "sandbox"
# tags = ["array", "aref", "columns", "rows", "pitch", "matrix", "repeat", "instance array"]
# apis = ["gdsfactory.Component.add_ref", "gdsfactory.components.pad"]
# [expect]
# files = ["pad_matrix.gds"]
# cells = ["PAD_MATRIX"]
# layers = ["49/0"]
# bbox = {"PAD_MATRIX" = [-25.0, -25.0, 225.0, 105.0]}
# stdout = ["1 instance", "3 x 2 = 6 pads"]
# ---
import gdsfactory as gf

columns, rows = 3, 2
column_pitch = 100.0   # um
row_pitch = 80.0       # um
pad_size = (50.0, 50.0)
cell_name = "PAD_MATRIX"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
arr = c.add_ref(gf.components.pad(size=pad_size), columns=columns, rows=rows,
                column_pitch=column_pitch, row_pitch=row_pitch)
c.write_gds("pad_matrix.gds", with_metadata=False)

print(f"{cell_name}: {len(c.insts)} instance, {arr.na} x {arr.nb} = {arr.na * arr.nb} pads")
