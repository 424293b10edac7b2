import json

import sax

s = sax.models.coupler_ideal(coupling=0.7)
json.dump({"bar": float(abs(s[("in0", "out0")]) ** 2), "cross": float(abs(s[("in0", "out1")]) ** 2)}, open("coupler.json", "w"))
