import json

import sax

s = sax.models.coupler_ideal(coupling=0.3)
json.dump({"bar": float(abs(s[("in0", "out0")])), "cross": float(abs(s[("in0", "out1")]))}, open("coupler.json", "w"))
