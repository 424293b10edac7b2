# ---
# title = "Grow a layer by a distance and put the result on a new layer (cladding, keep-out)"
# summary = "Collects one layer under the active cell (sub-cells included) into a Region, sizes it outward by a distance in um converted to dbu (Region.sized merges touching results) and inserts it on another layer, e.g. a cladding or exclusion layer around waveguides. Prints the grown area."
# kind = "edit"
# tags = ["grow", "size up", "oversize", "bias", "cladding", "exclusion", "offset outline", "sized", "expand"]
# apis = ["pya.Region.new", "pya.Cell.begin_shapes_rec", "pya.Region.sized", "pya.Shapes.insert", "pya.Region.area"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"30/0" = 4, "1/0" = 4}
# stdout = ["area 235 um2", "extent (-1,-1;31,21.25)"]
# ---
# Parameters
SOURCE_LAYER = (1, 0)         # layer to grow
TARGET_LAYER = (30, 0)        # where the grown shapes go
MARGIN_UM = 1.0               # outward on every side

margin_dbu = int(round(MARGIN_UM / dbu))                               # um -> dbu
original = pya.Region(cell.begin_shapes_rec(layout.layer(*SOURCE_LAYER)))  # flat, sub-cells included
cladding = original.sized(margin_dbu)                                  # touching results merge
cell.shapes(layout.layer(*TARGET_LAYER)).insert(cladding)
extent = cladding.bbox().to_dtype(dbu)
print(f"{SOURCE_LAYER[0]}/{SOURCE_LAYER[1]} grown by {MARGIN_UM} um onto {TARGET_LAYER[0]}/{TARGET_LAYER[1]}: "
      f"{original.count()} -> {cladding.count()} polygons, area {cladding.area() * dbu ** 2:g} um2, extent {extent}")
