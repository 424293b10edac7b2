#!/usr/bin/env bash
# Idempotent set-up of pic-copilot on Debian 12. Every stage checks whether its work is
# already done and skips it; a second run takes a few seconds.
#
# Stages: system packages -> engine venv -> embedded LLM model -> embedded LLM runtime
#         -> embedding model -> tool-manual databases -> KLayout salt link.
# The LLM runtime (llama.cpp's llama-server, compiled from the pinned llama-cpp-python sdist, ~5 min
# on 2 cores) builds in the background from the start, while the venv and the model download.
#
# Environment:
#   PIC_COPILOT_HOME   shared data folder (LLM runtime + model), default ~/.local/share/pic-copilot
#   KLAYOUT_HOME       KLayout's home folder (salt link goes to $KLAYOUT_HOME/salt), default ~/.klayout
#   PIC_COPILOT_SKIP   space-separated stage names to skip (e.g. "llm")
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="${PIC_COPILOT_HOME:-$HOME/.local/share/pic-copilot}"
VENV="$ROOT/.venv"
SKIP=" ${PIC_COPILOT_SKIP:-} "
mkdir -p "$DATA"

stage_t0=0
stage() { stage_t0=$(date +%s.%N); printf '[setup] %-22s ' "$1"; }
done_() { printf '%s (%.1f s)\n' "$1" "$(echo "$(date +%s.%N) - $stage_t0" | bc)"; }
LOG="$DATA/setup.log"
fail() { printf '\n[setup] FAILED: %s\n' "$*" >&2; [ -s "$LOG" ] && { echo "--- last lines of $LOG:" >&2; grep -v "^WARNING: Location" "$LOG" | tail -n 15 >&2; }; exit 1; }
: > "$LOG"
skipped() { [[ "$SKIP" == *" $1 "* ]]; }

# ---------------------------------------------------------------- system packages
APT_PKGS="klayout xvfb bubblewrap imagemagick bc python3-venv cmake ninja-build g++"
stage system-packages
missing=""
for p in $APT_PKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >>"$LOG" 2>&1 || fail "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null \
    || fail "apt-get install$missing failed"
  done_ "installed$missing"
else
  done_ "already installed"
fi
KLAYOUT_VERSION="$(klayout -v 2>/dev/null | awk '{print $2}')"

# ---------------------------------------------------------------- embedded LLM runtime (background)
# needs only python3 and the build tools, so it starts now and overlaps the downloads below
RT_OUT="$DATA/llm-runtime/setup.out"
RT_PID=""
if ! skipped llm; then
  mkdir -p "$DATA/llm-runtime"
  rt_t0=$(date +%s.%N)
  # its own process group, so a set-up that fails elsewhere can stop the whole build
  PYTHONPATH="$ROOT/lib" setsid python3 -m pic_copilot.setup.runtime build --data "$DATA" >"$RT_OUT" 2>&1 &
  RT_PID=$!
  trap '[ -n "$RT_PID" ] && kill -- -"$RT_PID" 2>/dev/null; true' EXIT
fi

# ---------------------------------------------------------------- engine venv
stage engine-venv
REQ_HASH="$(sha256sum "$ROOT/pyproject.toml" | cut -c1-16)"
if [ -f "$VENV/.pic-copilot-stamp" ] && [ "$(cat "$VENV/.pic-copilot-stamp")" = "$REQ_HASH" ]; then
  done_ "up to date"
else
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV" || fail "cannot create venv at $VENV"
  "$VENV/bin/pip" install -q --upgrade pip >>"$LOG" 2>&1
  "$VENV/bin/pip" install -q -e "$ROOT[test]" >>"$LOG" 2>&1 || fail "pip install of the engine failed (see: $VENV/bin/pip install -e '$ROOT[test]')"
  echo "$REQ_HASH" > "$VENV/.pic-copilot-stamp"
  done_ "installed"
fi
PY="$VENV/bin/python"

if ! skipped llm; then
  # -------------------------------------------------------------- embedded LLM model
  stage llm-model
  "$PY" -m pic_copilot.setup.assets llm --data "$DATA" || fail "embedded LLM model could not be installed (see message above)"
  done_ "ok"

  # -------------------------------------------------------------- embedded LLM runtime
  stage llm-runtime
  stage_t0=$rt_t0   # the time shown is the build's own, from its start in the background
  kill -0 "$RT_PID" 2>/dev/null && echo -n "(waiting for the llama-server build, ~5 min on 2 cores the first time) "
  rc=0; wait "$RT_PID" || rc=$?
  RT_PID=""
  if [ "$rc" -ne 0 ]; then
    cat "$RT_OUT" >&2
    LOG="$DATA/llm-runtime/build.log"
    fail "building llama-server failed (above; full log: $LOG)"
  fi
  msg="$(tr -d '\n' <"$RT_OUT")"
  # the binary must answer on this CPU: start it on a free port with the model, ask for one token
  "$PY" -m pic_copilot.setup.runtime check --data "$DATA" --smoke >"$RT_OUT" 2>&1 \
    || { cat "$RT_OUT" >&2; fail "llama-server was built but does not run here (above)"; }
  done_ "$msg, $(tr -d '\n' <"$RT_OUT")"
fi

# ---------------------------------------------------------------- embedding model
if ! skipped embed; then
  stage embedding-model
  "$PY" -m pic_copilot.setup.assets embedding --models "$ROOT/models" || fail "embedding model could not be installed"
  done_ "ok"
fi

# ---------------------------------------------------------------- databases
if ! skipped databases && "$PY" -c "import pic_copilot.retrieval.build" 2>/dev/null; then
  stage databases
  "$PY" -m pic_copilot.frontends.cli build-db --if-missing --quiet || fail "building the tool-manual databases failed"
  done_ "ok"
fi

# ---------------------------------------------------------------- KLayout salt link
stage klayout-salt
KHOME="${KLAYOUT_HOME:-$HOME/.klayout}"
mkdir -p "$KHOME/salt"
LINK="$KHOME/salt/pic-copilot"
if [ -L "$LINK" ] && [ "$(readlink -f "$LINK")" = "$ROOT" ]; then
  msg="linked"
else
  rm -rf "$LINK"; ln -s "$ROOT" "$LINK"; msg="linked now"
fi
# first-run tip dialogs block automation and confuse first-time users of the panel
RC="$KHOME/klayoutrc"
if [ ! -f "$RC" ]; then
  cat > "$RC" <<'XML'
<?xml version="1.0" encoding="utf-8"?>
<config>
 <tip-window-hidden>only-top-level-shown-by-default=3,macro-editor-basic-tips=0,editor-mode-switch-tip=0</tip-window-hidden>
 <macro-editor-stop-on-exception>false</macro-editor-stop-on-exception>
</config>
XML
fi
done_ "$msg ($LINK -> $ROOT, KLayout $KLAYOUT_VERSION)"
