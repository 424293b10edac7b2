cell.shapes(layout.layer(1, 0)).clear()
