import gdsfactory as gf

gf.gpdk.PDK.activate()
c = gf.Component("WG25")
c << gf.components.straight(length=25, width=0.5)
c.write_gds("straight.gds")
