# ---
# title = "Add grating couplers in a fiber-array row to every optical port of a device"
# summary = "Wraps a device with gf.routing.add_fiber_array: every optical port is routed to a grating coupler of a fiber array (default generic-PDK TE grating, fixed pitch), plus a loopback pair for alignment. Use it to make a device testable with a fiber array; names the result."
# kind = "sandbox"
# tags = ["fiber array", "grating couplers", "test structure", "io", "loopback", "optical test"]
# apis = ["gdsfactory.routing.add_fiber_array", "gdsfactory.components.mmi1x2"]
# [expect]
# files = ["mmi_fiber_array.gds"]
# cells = ["MMI_WITH_GCS"]
# layers = ["1/0"]
# stdout = ["ports: loopback1 loopback2 o1 o2 o3"]
# bbox = {"MMI_WITH_GCS" = [-259.973, -121.301, 273.973, 1.25]}
# ---
import gdsfactory as gf

cell_name = "MMI_WITH_GCS"

gf.gpdk.PDK.activate()

device = gf.components.mmi1x2()
with_gcs = gf.routing.add_fiber_array(component=device)   # gratings + routes + loopback
c = gf.Component(cell_name)
ref = c << with_gcs
c.add_ports(ref.ports)
c.write_gds("mmi_fiber_array.gds", with_metadata=False)

print(f"{cell_name}: ports: {' '.join(sorted(p.name for p in c.ports))}, {c.xsize:.0f} x {c.ysize:.0f} um")
