# ---
# title = "Count polygons per layer of a component and write a CSV table"
# summary = "Collects a component's polygons grouped by layer with get_polygons(by='tuple') (flattened through the hierarchy; merge=True, which joins touching pieces, needs an unlocked copy()) and writes layer, polygons, vertices per layer to CSV. Use it to inspect what a device draws on each layer."
# kind = "sandbox"
# tags = ["polygons", "count", "per layer", "csv", "get_polygons", "statistics", "vertices"]
# apis = ["gdsfactory.Component.get_polygons", "gdsfactory.components.grating_coupler_elliptical"]
# [expect]
# files = ["gc_polygons.csv"]
# csv_columns = {"gc_polygons.csv" = ["layer", "polygons", "vertices"]}
# csv_rows = {"gc_polygons.csv" = 2}
# stdout = ["2 layers", "1/0:"]
# ---
import csv

import gdsfactory as gf

gf.gpdk.PDK.activate()

gc = gf.components.grating_coupler_elliptical()
by_layer = gc.get_polygons(by="tuple")    # {(layer, datatype): [kdb.Polygon, ...]}, in dbu
with open("gc_polygons.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["layer", "polygons", "vertices"])
    for (layer, datatype), polys in sorted(by_layer.items()):
        w.writerow([f"{layer}/{datatype}", len(polys), sum(p.num_points() for p in polys)])

print(f"{len(by_layer)} layers: " + ", ".join(f"{l}/{d}: {len(p)} polygons" for (l, d), p in sorted(by_layer.items())))
