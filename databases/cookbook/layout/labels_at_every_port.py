# ---
# title = "Put a text label with the port name at every port of a device"
# summary = "Loops over a component's ports and adds a GDS text label with each port's name at its center (add_label on the TEXT layer), so the pinout is visible in a layout viewer; writes GDS and prints the labels."
# kind = "sandbox"
# tags = ["labels", "port labels", "pinout", "annotate ports", "text", "port names"]
# apis = ["gdsfactory.Component.add_label", "gdsfactory.Component.ports", "gdsfactory.components.mmi2x2"]
# [expect]
# files = ["port_labels.gds"]
# cells = ["MMI_PORT_LABELS"]
# layers = ["66/0", "1/0"]
# stdout = ["4 labels", "o1 o2 o3 o4"]
# ---
import gdsfactory as gf

cell_name = "MMI_PORT_LABELS"
label_layer = (66, 0)

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
ref = c << gf.components.mmi2x2()
for p in ref.ports:
    c.add_label(p.name, position=p.center, layer=label_layer)
c.write_gds("port_labels.gds", with_metadata=False)

names = sorted(t.string for t in c.get_labels(layer=label_layer))
print(f"{cell_name}: {len(names)} labels ({' '.join(names)})")
