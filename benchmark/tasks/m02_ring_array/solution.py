import gdsfactory as gf

gf.gpdk.PDK.activate()
ring = gf.components.ring_single(radius=5)
c = gf.Component("RING_ARRAY")
c.add_ref(ring, columns=4, rows=3, column_pitch=60, row_pitch=40)
c.write_gds("ring_array.gds")
