# ---
# title = "Grow a layer by a distance and put the result on a new layer (cladding, keep-out)"
# summary = "Collects one layer under the active cell (sub-cells included) into a Region, sizes it outward by a distance in um converted to dbu (Region.sized merges touching results) and inserts it on another layer, e.g. a cladding or exclusion layer around waveguides. Prints the grown area."
# kind = "edit"
# tags = ["grow", "size up", "oversize", "bias", "cladding", "exclusion", "offset outline", "sized", "expand"]
# apis = ["pya.Region.new", "pya.Cell.begin_shapes_rec", "pya.Region.sized", "pya.Shapes.insert", "pya.Region.area"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"30/0" = 4, "1/0" = 4}
# stdout = ["area 235 um2"]
# ---
# Parameters
SRC = (1, 0)                  # layer to grow
DST = (30, 0)                 # where the grown shapes go
GROW = 1.0                    # um, outward on every side

d = int(round(GROW / dbu))                                   # um -> dbu
src = pya.Region(cell.begin_shapes_rec(layout.layer(*SRC)))  # flat copy of the layer, sub-cells included
grown = src.sized(d)
cell.shapes(layout.layer(*DST)).insert(grown)
print(f"grew {SRC[0]}/{SRC[1]} by {GROW} um into {DST[0]}/{DST[1]}: {grown.count()} polygons, area {grown.area() * dbu ** 2:g} um2")
