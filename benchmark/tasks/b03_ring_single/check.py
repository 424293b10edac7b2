import klayout.db as kdb

ly = kdb.Layout()
ly.read("ring.gds")
top = ly.top_cell()
li = ly.find_layer(1, 0)
assert li is not None, "no waveguide layer 1/0"
reg = kdb.Region(top.begin_shapes_rec(li)).merged()
rings = [p for p in reg.each() if p.holes() > 0]
assert len(rings) == 1, f"expected one ring (a polygon with a hole) on 1/0, found {len(rings)}"
ring = rings[0].bbox().to_dtype(ly.dbu)
# a circular ring is 2R + w = 20.5 µm tall; the PDK's ring adds short straight sections (<= 1 µm)
outer = ring.height()
assert 20.4 < outer < 21.6, f"ring outer height {outer:.3f} µm, expected about 20.5 (radius 10, width 0.5)"
bus = [p.bbox().to_dtype(ly.dbu) for p in reg.each() if p.holes() == 0 and p.bbox().width() * ly.dbu > 15]
assert bus, "no bus waveguide found"
gap = min(ring.bottom - b.top for b in bus if b.top <= ring.bottom + 1e-6)
assert abs(gap - 0.2) < 0.01, f"coupling gap {gap:.3f} µm, expected 0.2"
