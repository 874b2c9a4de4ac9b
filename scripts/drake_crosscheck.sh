#!/usr/bin/env bash
# Builds contactlab and runs scripts/drake_crosscheck.py with the anchor venv (issue 14):
# pressure-field queries against Drake 1.51 and a quadrature of the analytic fields.
# Usage: scripts/drake_crosscheck.sh [--quick] [--only TEXT]   (ANCHOR_VENV overrides ~/.cache/contactlab-anchors)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${ANCHOR_VENV:-$HOME/.cache/contactlab-anchors}
[ -x "$venv/bin/python" ] || "$root/../shared/anchors/setup.sh"
cd "$root"
cargo build --release >&2
"$venv/bin/python" scripts/drake_crosscheck.py "$@" 2>&1 | grep -v '^WARNING:drake'
