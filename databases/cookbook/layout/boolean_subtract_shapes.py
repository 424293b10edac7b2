# ---
# title = "Boolean difference of two shapes (cut a hole), also and/or/xor"
# summary = "Combines two components' polygons with gf.boolean(A, B, operation, layer): 'not' (A minus B, e.g. a square with a circular hole), 'and', 'or', 'xor'; the result is on the given layer. Prints the areas in um2 so the operation can be checked."
# kind = "sandbox"
# tags = ["boolean", "subtract", "difference", "not", "hole", "and", "or", "xor", "cut"]
# apis = ["gdsfactory.boolean", "gdsfactory.components.rectangle", "gdsfactory.components.circle"]
# [expect]
# files = ["square_with_hole.gds"]
# cells = ["SQUARE_HOLE"]
# layers = ["1/0"]
# stdout = ["square 100.00 - circle 28.26 = 71.74 um2"]
# ---
import gdsfactory as gf

side = 10.0         # um, square side
hole_radius = 3.0   # um
layer = (1, 0)
cell_name = "SQUARE_HOLE"

gf.gpdk.PDK.activate()

square = gf.components.rectangle(size=(side, side), layer=layer, centered=True)
hole = gf.components.circle(radius=hole_radius, layer=layer)
result = gf.boolean(square, hole, operation="not", layer=layer)   # A - B
c = gf.Component(cell_name)
c << result
c.write_gds("square_with_hole.gds", with_metadata=False)

a_sq, a_h, a_r = square.area(layer=layer), hole.area(layer=layer), result.area(layer=layer)
print(f"{cell_name}: square {a_sq:.2f} - circle {a_h:.2f} = {a_r:.2f} um2")
