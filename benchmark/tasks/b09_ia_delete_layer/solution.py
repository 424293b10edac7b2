cell.shapes(layout.layer(5, 0)).clear()
