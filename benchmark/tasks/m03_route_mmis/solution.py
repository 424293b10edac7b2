import gdsfactory as gf

gf.gpdk.PDK.activate()
c = gf.Component("ROUTED")
mmi = gf.components.mmi1x2()
m1 = c << mmi
m2 = c << mmi
m2.move((200, 50))
gf.routing.route_single(c, m1.ports["o2"], m2.ports["o1"], cross_section="strip")
c.write_gds("routed.gds")
