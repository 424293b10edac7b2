# ---
# title = "Write a text as polygons (chip label, die name) on a chosen layer"
# summary = "Renders a string as polygon letters (gf.components.text) with the letter height in um, a position and justification, on a chosen layer (here TEXT 66/0), so the name is printed on the chip. For a non-printing GDS text label (a marker for tools) use add_label."
# kind = "sandbox"
# tags = ["text", "label", "letters", "chip name", "die id", "engraving", "polygons text"]
# apis = ["gdsfactory.components.text", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["chip_label.gds"]
# cells = ["CHIP_LABEL"]
# layers = ["66/0"]
# bbox = {"CHIP_LABEL" = [0.0, 0.0, 98.0, 20.0]}
# stdout = ["'CHIP A1'", "98.0 x 20.0 um"]
# ---
import gdsfactory as gf

label = "CHIP A1"
height = 20.0          # um, letter size
layer = (66, 0)        # TEXT layer of the generic PDK
cell_name = "CHIP_LABEL"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
c << gf.components.text(text=label, size=height, position=(0, 0), justify="left", layer=layer)
c.write_gds("chip_label.gds", with_metadata=False)

print(f"{cell_name}: {label!r} as polygons, {c.xsize:.1f} x {c.ysize:.1f} um")
