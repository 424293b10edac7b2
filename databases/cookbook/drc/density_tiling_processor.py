# ---
# title = "Tile-by-tile density with KLayout's TilingProcessor (large layouts)"
# summary = "Lets pya.TilingProcessor cut the layout into tiles (size and origin in um) and evaluate an expression per tile, here the covered fraction of a layer, collecting the values with a TileOutputReceiver; it scales to big layouts and can use several threads. Writes per-tile densities and min/max to tile_density.json."
# kind = "sandbox"
# tags = ["drc", "density", "tiling", "TilingProcessor", "tiles", "large layout", "threads", "coverage"]
# apis = ["pya.TilingProcessor", "pya.TilingProcessor.input", "pya.TilingProcessor.output", "pya.TilingProcessor.tile_size", "pya.TilingProcessor.tile_origin", "pya.TilingProcessor.queue", "pya.TilingProcessor.execute", "pya.TileOutputReceiver"]
# fixture = "fill_density"
# [expect]
# files = ["tile_density.json"]
# json_values = {"tile_density.json" = {"tiles" = 4, "min" = 0.0, "max" = 1.0, "densities" = [0.5, 0.04, 0.0, 1.0]}}
# stdout = ["4 tiles"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
OUTLINE = (99, 0)             # die outline: makes the tiles cover the whole die
TILE = 50.0                   # um


class Collect(pya.TileOutputReceiver):
    """Receives one value per tile from _output(...)."""

    def __init__(self):
        self.values = {}

    def put(self, ix, iy, tile, obj, dbu, clip):
        self.values[(ix, iy)] = obj


layout = pya.Layout()
layout.read(GDS)
top = layout.top_cell()
tp = pya.TilingProcessor()
tp.input("shapes", layout, top.cell_index(), layout.layer(*LAYER))
tp.input("die", layout, top.cell_index(), layout.layer(*OUTLINE))
tp.dbu = layout.dbu
tp.tile_size(TILE, TILE)              # um
tp.tile_origin(0.0, 0.0)
receiver = Collect()
tp.output("density", receiver)
# per tile: the expression sees _tile (the tile as a region) and each input as a Region
tp.queue("_output(density, to_f((shapes & _tile).area) / to_f(_tile.area))")
tp.execute("density tiles")
vals = [round(v, 6) for _, v in sorted(receiver.values.items())]   # order: by column, then row
with open("tile_density.json", "w") as f:
    json.dump({"tiles": len(vals), "tile_um": TILE, "min": min(vals), "max": max(vals), "densities": vals}, f, indent=2)
print(f"{len(vals)} tiles of {TILE} um: density {min(vals):g}..{max(vals):g}")
