import gdsfactory as gf
import klayout.db as kdb

gf.gpdk.PDK.activate()
ports = {p.name: p.center for p in gf.components.mmi1x2().ports}
ly = kdb.Layout()
ly.read("routed.gds")
assert [c.name for c in ly.top_cells()] == ["ROUTED"], f"top cells {[c.name for c in ly.top_cells()]}"
wg = kdb.Region(ly.top_cell().begin_shapes_rec(ly.layer(1, 0))).merged()


def covered(x, y):
    p = kdb.DBox(x - 0.02, y - 0.02, x + 0.02, y + 0.02).to_itype(ly.dbu)
    return not (wg & kdb.Region(p)).is_empty()


assert wg.count() == 1, f"waveguide layer is {wg.count()} separate pieces: the MMIs must be connected"
ox, oy = ports["o1"]
assert covered(ox + 200 + 1.0, oy + 50), "the second MMI is not at (200, 50)"
x2, y2 = ports["o2"]
x3, y3 = ports["o3"]
assert covered(x2 + 0.5, y2), "nothing leaves the first MMI's o2 port"
assert not covered(x3 + 0.5, y3), "a waveguide leaves the first MMI's o3 port (wrong output)"
