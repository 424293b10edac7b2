# ---
# title = "Flatten the active cell of the open layout (all levels), removing unused sub-cells"
# summary = "Runs in KLayout on the open layout: flattens the active cell through all hierarchy levels so its instances become plain shapes in the cell itself, and prunes sub-cells that are no longer used anywhere. Prints the shape count per layer after flattening."
# kind = "edit"
# tags = ["flatten", "explode", "open layout", "active cell", "remove hierarchy", "prune", "flat"]
# apis = ["pya.Cell.flatten", "pya.Cell.shapes", "pya.Layout.layer_indexes", "pya.Layout.each_cell"]
# fixture = "data_chip"
# [expect]
# cells = ["TOP"]
# shapes = {"1/0" = 79, "49/0" = 8, "66/0" = 12, "3/0" = 7}
# stdout = ["flattened TOP: 9 instances -> 0", "1 cells left"]
# ---
before = sum(1 for _ in cell.each_inst())
cell.flatten(-1, True)              # -1 = all levels, True = delete cells that became unused

for li in layout.layer_indexes():
    info = layout.get_info(li)
    print(f"{info.layer}/{info.datatype}: {cell.shapes(li).size()} shapes")
print(f"flattened {cell.name}: {before} instances -> {sum(1 for _ in cell.each_inst())}; "
      f"{sum(1 for _ in layout.each_cell())} cells left")
