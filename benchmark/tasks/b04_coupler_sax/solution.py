import json

import sax

s = sax.models.coupler_ideal(coupling=0.3)
bar = float(abs(s[("in0", "out0")]) ** 2)
cross = float(abs(s[("in0", "out1")]) ** 2)
json.dump({"bar": bar, "cross": cross}, open("coupler.json", "w"))
