import gdsfactory as gf

gf.gpdk.PDK.activate()
c = gf.Component("RING_ARRAY")
c.add_ref(gf.components.ring_single(radius=5), columns=3, rows=4, column_pitch=60, row_pitch=40)
c.write_gds("ring_array.gds")
