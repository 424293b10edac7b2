# ---
# title = "Write a text as polygons into the open layout (gdsfactory text)"
# summary = "Renders a string as polygon letters of a given height in um on a chosen layer with gf.components.text, names the cell and writes it without metadata; pic-copilot places it in the open layout. For a non-printing GDS text label use add_label or a pya Text."
# kind = "new"
# tags = ["text", "letters", "label", "chip name", "place", "insert", "open layout"]
# apis = ["gdsfactory.components.text", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["text_new.gds"]
# cells = ["TEXT_REV2"]
# layers = ["66/0"]
# bbox = {"TEXT_REV2" = [0.0, 0.0, 32.0, 10.0]}
# stdout = ["TEXT_REV2: 'REV2'"]
# ---
import gdsfactory as gf

text = "REV2"
height = 10.0        # um
layer = (66, 0)
cell_name = "TEXT_REV2"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
c << gf.components.text(text=text, size=height, layer=layer)
c.write_gds("text_new.gds", with_metadata=False)
print(f"{cell_name}: {text!r}, {c.xsize:.1f} x {c.ysize:.1f} um")
