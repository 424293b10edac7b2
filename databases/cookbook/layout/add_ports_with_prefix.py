# ---
# title = "Expose the ports of several sub-components with name prefixes"
# summary = "Places two copies of a device in one top cell and re-exports all their ports on the top cell with add_ports(ref.ports, prefix=...) so the names stay unique (a_o1, b_o1, ...). Use it when a parent cell must offer its children's ports for routing or simulation."
# kind = "sandbox"
# tags = ["add_ports", "expose ports", "prefix", "port names", "hierarchy", "parent cell"]
# apis = ["gdsfactory.Component.add_ports", "gdsfactory.Component.movey", "gdsfactory.components.mmi1x2"]
# [expect]
# files = ["two_mmis.gds"]
# cells = ["TWO_MMIS"]
# layers = ["1/0"]
# stdout = ["6 ports: a_o1 a_o2 a_o3 b_o1 b_o2 b_o3"]
# ---
import gdsfactory as gf

pitch = 20.0      # um, vertical distance between the two MMIs
cell_name = "TWO_MMIS"

gf.gpdk.PDK.activate()

mmi = gf.components.mmi1x2()
c = gf.Component(cell_name)
a = c << mmi
b = c << mmi
b.movey(pitch)
c.add_ports(a.ports, prefix="a_")
c.add_ports(b.ports, prefix="b_")
c.write_gds("two_mmis.gds", with_metadata=False)

names = [p.name for p in c.ports]
print(f"{cell_name}: {len(names)} ports: {' '.join(names)}")
