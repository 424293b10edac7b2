import gdsfactory as gf

gf.gpdk.PDK.activate()
xs = gf.cross_section.cross_section(width=0.5, layer=(1, 0), sections=[gf.Section(width=4.0, layer=(2, 0), name="slab")])
c = gf.Component("RIB")
c << gf.components.straight(length=30, cross_section=xs)
c << gf.components.bend_circular(radius=10, cross_section=xs)
c.write_gds("rib.gds")
