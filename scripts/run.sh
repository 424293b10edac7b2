#!/usr/bin/env bash
# The main job. Sets everything up (idempotent), then:
#  - with a display: opens KLayout in editing mode with the pic-copilot panel docked;
#  - without one (CI, ssh): runs one example request headlessly in `klayout -b` through the
#    same engine and bridge, prints the script and what happened; exit 0 only if it ran.
# Usage: scripts/run.sh ["a request for the headless run"]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${PIC_COPILOT_HEADLESS:-}" ]; then
  exec klayout -e
fi
REQUEST="${1:-create a 1x2 MMI splitter with gdsfactory and place it in the open layout}"
OUT="${PIC_COPILOT_OUT:-$ROOT/build/headless-result.gds}"
mkdir -p "$(dirname "$OUT")"
exec klayout -b -r "$ROOT/klayout_plugin/run_headless.py" -rd "request=$REQUEST" -rd mode=interactive -rd "out=$OUT"
