# ---
# title = "Clip the current cell to a window into a new cell (hierarchy kept)"
# summary = "Uses layout.clip(cell, box in um) to make a new cell holding everything of the active cell inside the window, all layers, with sub-cells clipped as needed, and names it. The original cell is unchanged. Use it to cut out a test region or a tile of a design."
# kind = "edit"
# tags = ["clip cell", "crop design", "cut out", "tile", "window", "region", "new cell", "hierarchy"]
# apis = ["pya.Layout.clip", "pya.DBox.new", "pya.Layout.rename_cell", "pya.Cell.dbbox", "pya.Layout.unique_cell_name"]
# fixture = "mixed_shapes"
# [expect]
# cells = ["TOP_CLIP"]
# shapes = {"1/0" = 4}
# stdout = ["TOP_CLIP bbox (45,-5;55,5)"]
# ---
# Parameters
WINDOW = pya.DBox(40, -10, 60, 10)   # um: the lower pad only
NAME = "TOP_CLIP"

clip = layout.clip(cell, WINDOW)     # new cell (returned as a Cell) with the clipped content
layout.rename_cell(clip.cell_index(), layout.unique_cell_name(NAME))
print(f"{clip.name} bbox {clip.dbbox()} ({sum(1 for _ in clip.each_inst())} instances kept)")
