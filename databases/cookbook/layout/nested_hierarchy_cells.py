# ---
# title = "Build a two-level hierarchy: a unit cell placed several times in a top cell"
# summary = "Makes a named sub-cell (a unit of devices), places it several times in a named top cell with a pitch in um, writes the hierarchy (cells stay cells, not flattened) and prints the top cell's called cells. Use it for repeated blocks whose edits should apply to every copy."
# kind = "sandbox"
# tags = ["hierarchy", "sub-cell", "unit cell", "instances", "cell tree", "reuse", "nested"]
# apis = ["gdsfactory.Component", "gdsfactory.Component.add_ref", "gdsfactory.Component.movey"]
# [expect]
# files = ["hierarchy.gds"]
# cells = ["BLOCK", "UNIT_CELL"]
# layers = ["1/0", "49/0"]
# stdout = ["BLOCK has 4 instances of UNIT_CELL"]
# bbox = {"BLOCK" = [-10.0, -10.0, 40.0, 250.0]}
# ---
import gdsfactory as gf

copies = 4          # instances of the unit cell
pitch = 80.0        # um between copies (vertical)

gf.gpdk.PDK.activate()

unit = gf.Component("UNIT_CELL")                      # the repeated block
unit << gf.components.straight(length=40)
unit << gf.components.pad(size=(20, 20))               # centered on the straight's start

top = gf.Component("BLOCK")
for i in range(copies):
    ref = top << unit
    ref.movey(i * pitch)
top.write_gds("hierarchy.gds", with_metadata=False)

called = [top.kcl[ci].name for ci in top.called_cells()]
print(f"BLOCK has {len(top.insts)} instances of UNIT_CELL; called cells: {', '.join(sorted(called))}")
