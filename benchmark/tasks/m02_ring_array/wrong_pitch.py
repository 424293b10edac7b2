import gdsfactory as gf

gf.gpdk.PDK.activate()
c = gf.Component("RING_ARRAY")
c.add_ref(gf.components.ring_single(radius=5), columns=4, rows=3, column_pitch=50, row_pitch=40)
c.write_gds("ring_array.gds")
