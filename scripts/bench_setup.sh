# Sourced by the side-by-side benchmarks (bench_sim.sh, bench_arm.sh, bench_pinch.sh,
# bench_gripper.sh): the repository root as the working folder, the anchors' venv (made by
# ../shared/anchors/setup.sh when missing; ANCHORS and ANCHOR_VENV override where), the release
# binary's path, a work folder removed on exit, and one thread for every code.
# shellcheck shell=bash
root=$(cd "$(dirname "${BASH_SOURCE[1]}")/.." && pwd)
cd "$root"
anchors=${ANCHORS:-$root/../shared/anchors}
venv=${ANCHOR_VENV:-$HOME/.cache/contactlab-anchors}
[ -x "$venv/bin/python" ] || "$anchors/setup.sh" >&2
bin="${CARGO_TARGET_DIR:-target}/release/contactlab"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 RAYON_NUM_THREADS=1
