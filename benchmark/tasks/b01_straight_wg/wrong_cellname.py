import gdsfactory as gf

gf.gpdk.PDK.activate()
c = gf.components.straight(length=25, width=0.6)
c.write_gds("straight.gds")
