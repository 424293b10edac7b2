import gdsfactory as gf

gf.gpdk.PDK.activate()
xs = gf.cross_section.cross_section(
    width=0.5,
    layer=(1, 0),
    sections=[gf.Section(width=4.0, layer=(2, 0), name="slab")],
)
c = gf.Component("RIB")
straight = c << gf.components.straight(length=30, cross_section=xs)
bend = c << gf.components.bend_circular(radius=10, cross_section=xs)
bend.connect("o1", straight.ports["o2"])
c.add_port("o1", port=straight.ports["o1"])
c.add_port("o2", port=bend.ports["o2"])
c.write_gds("rib.gds")
