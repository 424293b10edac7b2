l1 = layout.layer(1, 0)
cell.shapes(l1).insert(pya.DBox(0, 0, 10, 10))
cell.shapes(l1).insert(pya.DBox(20, 0, 20.5, 0.5))            # 0.25 µm², alone -> small
cell.shapes(l1).insert(pya.DBox(30, 0, 30.6, 0.6))            # touches the next: merged 0.72 µm² -> small
cell.shapes(l1).insert(pya.DBox(30.6, 0, 31.2, 0.6))
cell.shapes(l1).insert(pya.DBox(40, 0, 40.8, 1.0))            # overlaps the next: merged 1.2 µm² -> stays
cell.shapes(l1).insert(pya.DBox(40.4, 0, 41.2, 1.0))
cell.shapes(l1).insert(pya.DPolygon([pya.DPoint(50, 0), pya.DPoint(51, 0), pya.DPoint(50, 1)]))   # 0.5 µm²
cell.shapes(l1).insert(pya.DBox(60, 5, 61, 6))                 # exactly 1 µm² -> stays
sub = layout.create_cell("SUB")
sub.shapes(l1).insert(pya.DBox(0, 0, 0.3, 0.3))                # in a sub-cell: not touched
cell.insert(pya.DCellInstArray(sub.cell_index(), pya.DTrans(pya.DVector(0, 50))))
