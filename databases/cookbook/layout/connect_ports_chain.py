# ---
# title = "Chain components port to port: straight, bend, straight"
# summary = "Snaps references together with ref.connect('o1', other.ports['o2']) so each piece starts where the previous one ends (position and direction), building a straight - 90 degree bend - straight waveguide; exposes the two free ends as the top cell's ports. Use it to assemble devices without computing coordinates."
# kind = "sandbox"
# tags = ["connect", "ports", "chain", "snap", "assemble", "connect ports", "hierarchy"]
# apis = ["gdsfactory.ComponentReference.connect", "gdsfactory.Component.add_port", "gdsfactory.components.straight", "gdsfactory.components.bend_euler"]
# [expect]
# files = ["chain.gds"]
# cells = ["WG_CHAIN"]
# layers = ["1/0"]
# bbox = {"WG_CHAIN" = [0.0, -0.25, 20.25, 30.0]}
# stdout = ["in (0.0, 0.0) 180", "out (20.0, 30.0) 90"]
# ---
import gdsfactory as gf

first_length = 10.0     # um
bend_radius = 10.0      # um
second_length = 20.0    # um
cell_name = "WG_CHAIN"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
s1 = c << gf.components.straight(length=first_length)
b = c << gf.components.bend_euler(radius=bend_radius)
s2 = c << gf.components.straight(length=second_length)
b.connect("o1", s1.ports["o2"])     # bend input onto the first straight's output
s2.connect("o1", b.ports["o2"])     # second straight onto the bend's output
c.add_port("in", port=s1.ports["o1"])
c.add_port("out", port=s2.ports["o2"])
c.write_gds("chain.gds", with_metadata=False)

for p in c.ports:
    print(f"{p.name} ({p.center[0]:.1f}, {p.center[1]:.1f}) {p.orientation:.0f}")
