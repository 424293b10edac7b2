# ---
# title = "Array of waveguides with every copy's ports exposed (gf.components.array)"
# summary = "Makes a columns x rows array of a component with gf.components.array, pitches in um; unlike a raw arrayed instance it exposes each copy's ports named <port>_<row>_<column> (o1_1_1, o1_2_1, ...), ready for routing. Use it for a bank of parallel waveguides or devices."
# kind = "sandbox"
# tags = ["array", "waveguide array", "bank", "parallel", "pitch", "ports", "copies"]
# apis = ["gdsfactory.components.array", "gdsfactory.components.straight"]
# [expect]
# files = ["wg_bank.gds"]
# cells = ["WG_BANK"]
# layers = ["1/0"]
# stdout = ["8 ports", "o1_1_1 y 0.0", "o1_4_1 y 15.0"]
# bbox = {"WG_BANK" = [0.0, -0.25, 10.0, 15.25]}
# ---
import gdsfactory as gf

rows = 4
row_pitch = 5.0      # um between waveguides
length = 10.0        # um
cell_name = "WG_BANK"

gf.gpdk.PDK.activate()

bank = gf.components.array(component=gf.components.straight(length=length), columns=1, rows=rows,
                           row_pitch=row_pitch, column_pitch=0)
c = gf.Component(cell_name)
ref = c << bank
c.add_ports(ref.ports)
c.write_gds("wg_bank.gds", with_metadata=False)

print(f"{cell_name}: {len(c.ports)} ports; " + ", ".join(f"{p.name} y {p.center[1]:.1f}" for p in c.ports if p.name.startswith("o1")))
