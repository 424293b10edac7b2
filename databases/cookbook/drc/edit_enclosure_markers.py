# ---
# title = "Via enclosure check on the open layout, markers for short enclosure and for vias outside metal"
# summary = "In KLayout, checks that metal encloses every via by a margin (um) in the active cell and below: too-small enclosures go to one marker layer (edge-pair polygons), vias not fully inside metal get their bounding box on a second marker layer. Prints both counts."
# kind = "edit"
# tags = ["drc", "enclosure", "via", "contact", "metal", "markers", "open layout", "not inside"]
# apis = ["pya.Region.enclosing_check", "pya.Region.not_inside", "pya.EdgePairs.polygons", "pya.Polygon.bbox", "pya.Shapes.insert"]
# fixture = "drc_rules"
# [expect]
# shapes = {"101/0" = 1, "102/0" = 2}
# stdout = ["1 short enclosures", "2 vias not inside"]
# ---
# Parameters
METAL = (3, 0)
VIA = (4, 0)
MIN_ENCLOSURE = 0.3           # um
MARK_SHORT = (101, 0)
MARK_OUTSIDE = (102, 0)


def region(ld):
    return pya.Region(cell.begin_shapes_rec(layout.layer(*ld)))


metal, via = region(METAL), region(VIA)
short = metal.enclosing_check(via, int(round(MIN_ENCLOSURE / dbu)))
outside = via.not_inside(metal)
cell.shapes(layout.layer(*MARK_SHORT)).insert(short.polygons())
for poly in outside.each():
    cell.shapes(layout.layer(*MARK_OUTSIDE)).insert(poly.bbox())
print(f"{short.count()} short enclosures (< {MIN_ENCLOSURE} um), {outside.count()} vias not inside metal")
