import gdsfactory as gf

gf.gpdk.PDK.activate()
c = gf.Component("WG25")
wg = c << gf.components.straight(length=20, width=0.6)
c.write_gds("straight.gds")
