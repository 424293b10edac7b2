# ---
# title = "Write your own SAX model (a lossy Y-branch) and use it in a 1x4 splitter tree"
# summary = "Defines a custom component model as a plain function of wl and parameters returning an S-dict built with sax.reciprocal (a Y-branch with excess loss in dB and a power split ratio), then cascades three of them into a 1x4 splitter tree with sax.circuit. Reports the power at each output, the total insertion loss (2 x excess + 6.02 dB) and the output uniformity. Writes splitter_tree.json."
# kind = "sandbox"
# tags = ["custom model", "own model", "y-branch", "splitter tree", "1x4", "fan-out", "sax.reciprocal", "model function", "sax.circuit"]
# apis = ["sax.reciprocal", "sax.circuit"]
# fixture = ""
# [expect]
# files = ["splitter_tree.json"]
# json_values = {"splitter_tree.json" = {"num_outputs" = 4, "power_per_output" = 0.217741, "insertion_loss_dB" = 6.6206, "uniformity_dB" = 0.0}}
# stdout = ["4 outputs", "6.621 dB"]
# ---
import json

import jax.numpy as jnp
import numpy as np
import sax

EXCESS_LOSS_DB = 0.3      # per Y-branch
SPLIT = 0.5               # power fraction to out0


def y_branch(wl=1.55, loss_dB=0.3, split=0.5):
    """1x2 Y-branch: in0 -> out0 / out1 with a power split and excess loss (both outputs in phase)."""
    amp = 10 ** (-loss_dB / 20) * jnp.ones_like(jnp.asarray(wl, dtype=float))
    return sax.reciprocal({("in0", "out0"): amp * jnp.sqrt(split),
                           ("in0", "out1"): amp * jnp.sqrt(1 - split)})


netlist = {
    "instances": {"y1": "y_branch", "y2a": "y_branch", "y2b": "y_branch"},
    "connections": {"y1,out0": "y2a,in0", "y1,out1": "y2b,in0"},
    "ports": {"in": "y1,in0", "o1": "y2a,out0", "o2": "y2a,out1", "o3": "y2b,out0", "o4": "y2b,out1"},
}
tree, _ = sax.circuit(netlist, models={"y_branch": y_branch})
branch = {"loss_dB": EXCESS_LOSS_DB, "split": SPLIT}
s = tree(wl=1.55, y1=branch, y2a=branch, y2b=branch)

outs = ["o1", "o2", "o3", "o4"]
powers = [float(np.abs(s["in", o]) ** 2) for o in outs]
total = sum(powers)
result = {"num_outputs": len(outs), "power_per_output": round(powers[0], 6),
          "powers": [round(p, 6) for p in powers],
          "insertion_loss_dB": round(-10 * np.log10(powers[0]), 4),         # in -> one output
          "uniformity_dB": round(10 * np.log10(max(powers) / min(powers)), 6),
          "total_transmitted": round(total, 6)}
with open("splitter_tree.json", "w") as f:
    json.dump(result, f, indent=2)
print(f"{len(outs)} outputs, each {powers[0]:.4f} ({-10 * np.log10(powers[0]):.3f} dB), "
      f"uniformity {result['uniformity_dB']} dB, total {total:.4f}")
