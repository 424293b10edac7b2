import gdsfactory as gf

gf.gpdk.PDK.activate()
xs = gf.cross_section.cross_section(width=0.5, layer=(1, 0), sections=[gf.Section(width=3.0, layer=(2, 0), name="slab")])
c = gf.Component("RIB")
s = c << gf.components.straight(length=30, cross_section=xs)
b = c << gf.components.bend_circular(radius=10, cross_section=xs)
b.connect("o1", s.ports["o2"])
c.write_gds("rib.gds")
