# ---
# title = "Delete the text labels whose string matches a pattern"
# summary = "Finds the texts on a label layer of the active cell whose string matches a regular expression (e.g. every label starting with CHIP) and erases them, leaving the other labels. Use it to clean up old or auto-generated labels."
# kind = "edit"
# tags = ["delete labels", "remove text", "regex", "pattern", "text filter", "annotations", "clean labels"]
# apis = ["pya.Shapes.each", "pya.Shape.is_text", "pya.Shape.text_string", "pya.Shapes.erase"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"10/0" = 2}
# stdout = ["deleted 1 labels: CHIP_A"]
# ---
import re

# Parameters
LAYER, DATATYPE = 10, 0
PATTERN = r"^CHIP"            # regular expression on the label string

shapes = cell.shapes(layout.layer(LAYER, DATATYPE))
hits = [s for s in shapes.each() if s.is_text() and re.search(PATTERN, s.text_string)]
names = [s.text_string for s in hits]
for s in hits:
    shapes.erase(s)
print(f"deleted {len(hits)} labels: {', '.join(names)}")
