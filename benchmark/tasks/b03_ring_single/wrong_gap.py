import gdsfactory as gf

gf.gpdk.PDK.activate()
gf.components.ring_single(radius=10, gap=0.3).write_gds("ring.gds")
