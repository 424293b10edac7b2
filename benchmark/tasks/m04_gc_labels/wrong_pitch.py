import gdsfactory as gf

gf.gpdk.PDK.activate()
gc = gf.get_component("grating_coupler_te")
c = gf.Component("GC_ROW")
for i in range(4):
    ref = c << gc
    ref.move((125 * i, 0))
    c.add_label(f"GC{i}", position=ref.ports["o1"].center, layer=(10, 0))
c.write_gds("gc_row.gds")
