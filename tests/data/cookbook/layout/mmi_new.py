# ---
# title = "An MMI 1x2 splitter to place in the open layout"
# summary = "Runner self-test: builds gdsfactory's mmi1x2 and writes it without metadata."
# kind = "new"
# tags = ["mmi", "self-test"]
# apis = ["gdsfactory.components.mmi1x2", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["mmi.gds"]
# cells = ["MMI_SELFTEST"]
# layers = ["1/0"]
# stdout = ["ports 3"]
# ---
import gdsfactory as gf

gf.gpdk.PDK.activate()
c = gf.components.mmi1x2().copy()  # a copy may be renamed (cached cells are locked)
c.name = "MMI_SELFTEST"
c.write_gds("mmi.gds", with_metadata=False)
print(f"ports {len(c.ports)}")
