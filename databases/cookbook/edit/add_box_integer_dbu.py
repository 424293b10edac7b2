# ---
# title = "Add a rectangle using integer database units converted from micrometres"
# summary = "Converts um coordinates to database units with the layout's dbu (int(round(x / dbu))) and inserts an integer pya.Box. Use it when you work with integer geometry (Box, Polygon, Region) and need exact grid coordinates; with DBox the conversion happens for you."
# kind = "edit"
# tags = ["rectangle", "box", "dbu", "database units", "integer coordinates", "grid", "convert um to dbu"]
# apis = ["pya.Box.new", "pya.Layout.dbu", "pya.Layout.layer", "pya.Shapes.insert", "pya.Shape.dbbox"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"1/0" = 5}
# stdout = ["(0,30;2.5,31.2)", "2500 x 1200 dbu"]
# ---
# Parameters (um)
LAYER, DATATYPE = 1, 0
LEFT, BOTTOM, RIGHT, TOP = 0.0, 30.0, 2.5, 31.2


def to_dbu(x_um):
    """um -> integer database units of this layout."""
    return int(round(x_um / dbu))


box = pya.Box(to_dbu(LEFT), to_dbu(BOTTOM), to_dbu(RIGHT), to_dbu(TOP))  # integer dbu coordinates
shape = cell.shapes(layout.layer(LAYER, DATATYPE)).insert(box)
print(f"added {box.width()} x {box.height()} dbu box = {shape.dbbox()} um (dbu = {dbu} um)")
