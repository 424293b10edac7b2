import gdsfactory as gf

gf.gpdk.PDK.activate()
c = gf.Component("ROUTED")
m1 = c << gf.components.mmi1x2()
m2 = c << gf.components.mmi1x2()
m2.move((200, 50))
gf.routing.route_single(c, m1.ports["o3"], m2.ports["o1"], cross_section="strip")
c.write_gds("routed.gds")
