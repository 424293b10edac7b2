# ---
# title = "Add a GDS text label (non-printing annotation) at a position"
# summary = "Adds text labels (GDS TEXT elements, not polygons) to a component with add_label(text, position, layer), e.g. a device name or a test-pad name for automated probing, on the TEXT layer 66/0; reads them back with get_labels. For letters that are printed on the chip use gf.components.text."
# kind = "sandbox"
# tags = ["label", "text label", "annotation", "gds text", "marker", "probe label", "add_label"]
# apis = ["gdsfactory.Component.add_label", "gdsfactory.Component.get_labels"]
# [expect]
# files = ["labelled.gds"]
# cells = ["LABELLED_WG"]
# layers = ["66/0"]
# stdout = ["2 labels: DEVICE_A at (25.0, 0.0), opt_in_TE at (0.0, 0.0)"]
# ---
import gdsfactory as gf

cell_name = "LABELLED_WG"
label_layer = (66, 0)     # TEXT layer of the generic PDK

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
wg = c << gf.components.straight(length=50)
c.add_label("DEVICE_A", position=(wg.x, wg.y), layer=label_layer)         # at the center
c.add_label("opt_in_TE", position=wg.ports["o1"].center, layer=label_layer)   # at the input port
c.write_gds("labelled.gds", with_metadata=False)

labels = sorted(c.get_labels(layer=label_layer), key=lambda t: t.string)
text = ", ".join(f"{t.string} at ({t.x:.1f}, {t.y:.1f})" for t in labels)
print(f"{cell_name}: {len(labels)} labels: {text}")
