# ---
# title = "Write GDS without some layers (e.g. drop a cladding or marker layer)"
# summary = "Writes a component to GDS leaving out chosen layers with write_gds(exclude_layers=[...]) (layers as (layer, datatype)), e.g. to send a mask file without the cladding or documentation layers; the component itself keeps them. Reads the file back to list the layers written."
# kind = "sandbox"
# tags = ["exclude layers", "write gds", "drop layer", "mask file", "filter layers", "export"]
# apis = ["gdsfactory.Component.write_gds", "gdsfactory.cross_section.strip"]
# [expect]
# files = ["no_clad.gds"]
# cells = ["WG_NO_CLAD"]
# layers = ["1/0"]
# stdout = ["component layers [(1, 0), (111, 0)]", "file layers [(1, 0)]"]
# ---
import gdsfactory as gf
import klayout.db as kdb

drop = [(111, 0)]     # layers left out of the file
cell_name = "WG_NO_CLAD"

gf.gpdk.PDK.activate()

xs = gf.cross_section.strip(cladding_layers=((111, 0),), cladding_offsets=(2.0,))
c = gf.components.straight(length=20, cross_section=xs).copy()
c.name = cell_name
c.write_gds("no_clad.gds", with_metadata=False, exclude_layers=drop)

ly = kdb.Layout()
ly.read("no_clad.gds")
in_file = sorted((ly.get_info(i).layer, ly.get_info(i).datatype) for i in ly.layer_indexes())
print(f"{cell_name}: component layers {sorted(c.layers)}, file layers {in_file}")
