import gdsfactory as gf

gf.gpdk.PDK.activate()
ring = gf.components.ring_single(radius=10, gap=0.2)
ring.write_gds("ring.gds")
