import gdsfactory as gf

gf.gpdk.PDK.activate()
gc = gf.get_component("grating_coupler_te")
c = gf.Component("GC_ROW")
for i in range(4):
    ref = c << gc
    ref.move((127 * i, 0))
    port = ref.ports["o1"]
    c.add_label(f"GC{i}", position=port.center, layer=(10, 0))
c.write_gds("gc_row.gds")
