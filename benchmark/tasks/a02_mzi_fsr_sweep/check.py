import csv

rows = list(csv.DictReader(open("fsr.csv")))
got = {round(float(r["delta_length_um"])): (float(r["fsr_nm"]), float(r["fsr_theory_nm"])) for r in rows}
assert sorted(got) == [20, 40, 80, 160], f"ΔL values {sorted(got)}"
for dl, (fsr, theory) in got.items():
    exact = 1.55 ** 2 / (3.4 * dl) * 1000
    assert abs(theory - exact) < 0.01 * exact, f"ΔL={dl}: theory column {theory}, expected {exact:.3f}"
    assert abs(fsr - exact) < 0.04 * exact, f"ΔL={dl}: simulated FSR {fsr:.3f} nm, expected ~{exact:.3f}"
with open("fsr.png", "rb") as f:
    head = f.read(8)
assert head == b"\x89PNG\r\n\x1a\n", "fsr.png is not a PNG image"
