"""Runs inside ``klayout -b``: the bridge's layout fingerprint of each file in ``files`` (comma list).

-rd globals: root, out (JSON result file), files.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(root, "klayout_plugin"))  # noqa: F821

import pya  # noqa: E402

from pic_copilot_plugin.bridge import layout_fingerprint  # noqa: E402

fps = []
for path in files.split(","):  # noqa: F821
    ly = pya.Layout()
    ly.read(path)
    fps.append(layout_fingerprint(ly))
with open(out, "w") as f:  # noqa: F821
    json.dump({"fingerprints": fps}, f)
