# ---
# title = "Add a fiber grating coupler from the generic PDK to the open layout"
# summary = "Builds the generic PDK's TE grating coupler (grating_coupler_te, an elliptical grating for 1.55 um), names its cell and writes it without metadata so pic-copilot can place it in the layout open in KLayout."
# kind = "new"
# tags = ["grating coupler", "fiber coupler", "place", "insert", "open layout", "io", "te"]
# apis = ["gdsfactory.components.grating_coupler_te", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["gc_new.gds"]
# cells = ["GC_TE"]
# layers = ["1/0"]
# stdout = ["GC_TE: ports o1"]
# ---
import gdsfactory as gf

cell_name = "GC_TE"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.grating_coupler_te()
c.add_ports(ref.ports)
c.write_gds("gc_new.gds", with_metadata=False)
print(f"{cell_name}: ports {', '.join(p.name for p in c.ports)}, {c.xsize:.1f} x {c.ysize:.1f} um")
