import gdsfactory as gf

gf.gpdk.PDK.activate()
gf.components.ring_single(radius=5, gap=0.2).write_gds("ring.gds")
