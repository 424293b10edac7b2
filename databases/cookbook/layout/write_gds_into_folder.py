# ---
# title = "Write GDS files into an output folder, one file per component"
# summary = "Writes several components into a folder with write_gds(gdsdir=...), which names each file after its cell and returns the written path; creates the folder if needed. Use it to export a library of devices as separate GDS files."
# kind = "sandbox"
# tags = ["write gds", "output folder", "export", "gdsdir", "several files", "library export"]
# apis = ["gdsfactory.Component.write_gds"]
# [expect]
# files = ["gds_out/SPLITTER_A.gds", "gds_out/SPLITTER_B.gds"]
# cells = ["SPLITTER_A", "SPLITTER_B"]
# layers = ["1/0"]
# stdout = ["gds_out/SPLITTER_A.gds", "gds_out/SPLITTER_B.gds"]
# ---
import gdsfactory as gf

out_dir = "gds_out"

gf.gpdk.PDK.activate()

written = []
for name, length in (("SPLITTER_A", 5.5), ("SPLITTER_B", 12.0)):
    c = gf.Component(name)
    ref = c << gf.components.mmi1x2(length_mmi=length)
    c.add_ports(ref.ports)
    path = c.write_gds(gdsdir=out_dir, with_metadata=False)   # <gdsdir>/<cell name>.gds
    written.append(str(path))

print("wrote " + ", ".join(written))
