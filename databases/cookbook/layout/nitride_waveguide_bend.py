# ---
# title = "Silicon nitride waveguide: straight and bend on the nitride layer"
# summary = "Uses the generic PDK's nitride cross-section (layer WGN 34/0, default radius 20 um) with a chosen width in um to build a straight followed by a 90-degree Euler bend, connected port to port. Use it for SiN circuits; strip is the silicon wire."
# kind = "sandbox"
# tags = ["nitride", "sin", "silicon nitride", "wgn", "cross-section", "bend", "low loss"]
# apis = ["gdsfactory.cross_section.nitride", "gdsfactory.components.straight", "gdsfactory.components.bend_euler", "gdsfactory.ComponentReference.connect"]
# [expect]
# files = ["sin_wg.gds"]
# cells = ["SIN_WG"]
# layers = ["34/0"]
# stdout = ["width 1.2 um", "radius 20.0 um", "end (60.0, 20.0)"]
# ---
import gdsfactory as gf

width = 1.2       # um, nitride core
length = 40.0     # um, straight section
cell_name = "SIN_WG"

gf.gpdk.PDK.activate()

xs = gf.cross_section.nitride(width=width)
c = gf.Component(cell_name)
s = c << gf.components.straight(length=length, cross_section=xs)
b = c << gf.components.bend_euler(cross_section=xs)   # radius from the cross-section
b.connect("o1", s.ports["o2"])
c.add_port("o1", port=s.ports["o1"])
c.add_port("o2", port=b.ports["o2"])
c.write_gds("sin_wg.gds", with_metadata=False)

end = c.ports["o2"].center
print(f"{cell_name}: width {xs.width} um, radius {xs.radius} um, end ({end[0]:.1f}, {end[1]:.1f})")
