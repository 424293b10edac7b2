import gdsfactory as gf

gf.gpdk.PDK.activate()
c = gf.Component("ROUTED")
m1 = c << gf.components.mmi1x2()
m2 = c << gf.components.mmi1x2()
m2.move((200, 50))
c.write_gds("routed.gds")
