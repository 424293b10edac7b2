#!/usr/bin/env bash
# Runs the whole test suite after the same idempotent set-up as the main job.
# Extra arguments go to pytest (e.g. scripts/test.sh -k bridge).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
mkdir -p "$ROOT/test-output"
cd "$ROOT"
exec "$ROOT/.venv/bin/python" -m pytest -p no:cacheprovider -rs "$@"
