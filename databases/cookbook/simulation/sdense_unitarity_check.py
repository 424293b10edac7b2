# ---
# title = "S-matrix of a circuit as a dense matrix: port order and a unitarity (lossless) check"
# summary = "Builds a 4-port circuit (an MZI from two 50:50 couplers and two arms) with sax.circuit(..., return_type='SDense'), which returns (matrix, port_index) instead of a dict. Prints the port order, checks S^H S = I (the circuit is lossless) and reciprocity S = S^T, then adds arm loss and shows the check fails. Writes smatrix.json with |S|^2 per port pair."
# kind = "sandbox"
# tags = ["s-matrix", "sdense", "matrix", "unitarity", "lossless", "reciprocity", "energy conservation", "port order", "sax"]
# apis = ["sax.circuit", "sax.models.coupler_ideal", "sax.models.straight"]
# fixture = ""
# [expect]
# files = ["smatrix.json"]
# json_values = {"smatrix.json" = {"num_ports" = 4, "unitary" = true, "reciprocal" = true, "unitary_with_loss" = false}}
# json_keys = {"smatrix.json" = ["ports", "power"]}
# stdout = ["ports ['in0', 'in1', 'out0', 'out1']", "unitary True"]
# ---
import json

import numpy as np
import sax

netlist = {
    "instances": {"dc1": "coupler", "top": "straight", "bot": "straight", "dc2": "coupler"},
    "connections": {"dc1,out0": "bot,in0", "dc1,out1": "top,in0", "bot,out0": "dc2,in0", "top,out0": "dc2,in1"},
    "ports": {"in0": "dc1,in0", "in1": "dc1,in1", "out0": "dc2,out0", "out1": "dc2,out1"},
}
mzi, _ = sax.circuit(netlist, models={"coupler": sax.models.coupler_ideal, "straight": sax.models.straight},
                     return_type="SDense")

S, index = mzi(wl=1.55, top={"length": 120.0}, bot={"length": 100.0})   # matrix + {port: row/column}
S = np.asarray(S)
ports = sorted(index, key=index.get)
eye = np.eye(len(ports))
unitary = bool(np.allclose(S.conj().T @ S, eye, atol=1e-9))
reciprocal = bool(np.allclose(S, S.T, atol=1e-12))

S_lossy, _ = mzi(wl=1.55, top={"length": 120.0, "loss_dB_cm": 100.0}, bot={"length": 100.0, "loss_dB_cm": 100.0})
unitary_lossy = bool(np.allclose(np.asarray(S_lossy).conj().T @ np.asarray(S_lossy), eye, atol=1e-9))

power = {f"{a}->{b}": round(float(abs(S[index[a], index[b]]) ** 2), 6) for a in ports for b in ports}
with open("smatrix.json", "w") as f:
    json.dump({"ports": ports, "num_ports": len(ports), "unitary": unitary, "reciprocal": reciprocal,
               "unitary_with_loss": unitary_lossy, "power": power}, f, indent=2)
print(f"ports {ports}; unitary {unitary}, reciprocal {reciprocal}; with 100 dB/cm loss unitary {unitary_lossy}")
