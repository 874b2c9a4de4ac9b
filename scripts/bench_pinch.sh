#!/usr/bin/env bash
# Speed of the two-finger pinch under hydroelastic contact (examples/gripper_pinch.toml: a 100 g
# rigid box held by two compliant fingers on PD-driven prismatic joints; pressure field, implicit
# Euler, dt = 1 ms, 1 s) beside Drake's MultibodyPlant with hydroelastic contact and SAP
# (scripts/drake_pinch.py), measured in one run on this machine, one thread each, best of three
# after a warm-up.
#
# Usage: scripts/bench_pinch.sh   (from any folder; ANCHOR_VENV overrides the anchors venv,
#   $HOME/.cache/contactlab-anchors, made by ../shared/anchors/setup.sh if missing)
# It uses the existing release binary (${CARGO_TARGET_DIR:-target}/release/contactlab) as is:
# run `cargo build --release` first if the sources changed (BUILD=1 makes the script do it).
# contactlab: `contactlab simulate examples/gripper_pinch.toml --quiet --no-output` with
# RAYON_NUM_THREADS=1; its figure is the summary's "without outputs" real-time factor (the
# integration alone: the clock starts after the scene is built and meshed, as Drake's timed
# AdvanceTo starts after its diagram is built and initialized). The untimed warm-up writes
# outputs, for the box's height at 0.2 s (slip) and 1 s.
# Prints both real-time factors, their ratio, the box's final height and its slip over 0.2-1 s;
# Drake's "similar" approximation (which, unlike SAP, uses the Hunt-Crossley dissipation and a
# stiction tolerance, as contactlab does) is printed below for reference.
set -euo pipefail

source "$(dirname "$0")/bench_setup.sh"
scene=examples/gripper_pinch.toml

if [ "${BUILD:-0}" = 1 ]; then
  echo "bench_pinch: cargo build --release" >&2
  cargo build --release >&2
fi
[ -x "$bin" ] || { echo "bench_pinch: no $bin (cargo build --release, or BUILD=1)" >&2; exit 1; }

echo "bench_pinch: contactlab (a warm-up with outputs, then best of three without)" >&2
"$bin" simulate "$scene" --out "$work/warm" --quiet > "$work/ours0.txt"
for k in 1 2 3; do
  "$bin" simulate "$scene" --out "$work/run$k" --quiet --no-output > "$work/ours$k.txt"
done
echo "bench_pinch: Drake (SAP, then similar for reference)" >&2
"$venv/bin/python" scripts/drake_pinch.py 2>&1 | grep -v '^WARNING:drake' > "$work/drake.txt"
"$venv/bin/python" scripts/drake_pinch.py --approximation similar 2>&1 | grep -v '^WARNING:drake' > "$work/drake_similar.txt"

echo "bench_pinch.sh  $(date -u '+%Y-%m-%d %H:%M:%SZ')  commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo '+dirty')  binary $(date -u -r "$bin" '+%Y-%m-%d %H:%M:%SZ')"
echo "machine: $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores, $(uname -sm); one thread each"
python3 - "$work" <<'PY'
import csv, re, sys
work = sys.argv[1]
best, integ, steps = 0.0, None, None
for k in (1, 2, 3):
    m = re.search(r"with (\S+): (\d+) steps .*\(([\d.]+) without outputs\)", open(f"{work}/ours{k}.txt").read())
    integ, steps = m[1], int(m[2])
    best = max(best, float(m[3]))
z = {}
for r in csv.DictReader(open(f"{work}/warm/trajectory.csv")):
    if r["body"] == "box":
        z[round(float(r["t"]), 6)] = float(r["z"])
zf = [float(r["z"]) for r in csv.DictReader(open(f"{work}/run3/trajectory.csv")) if r["body"] == "box"][-1]
ours = (best, zf, z[0.2] - z[1.0])
pick = lambda text: re.search(r"realtime_factor=([\d.]+) box_z_final=([\d.]+) \S+ slip_0.2_1=(\S+)", text)
dr_text = open(f"{work}/drake.txt").read(); ds_text = open(f"{work}/drake_similar.txt").read()
dr, ds = pick(dr_text), pick(ds_text)
print(dr_text.splitlines()[0])
print()
print(f"{'system':34} {'real-time factor':>16} {'contactlab ÷':>13} {'box z(1 s) m':>13} {'slip 0.2-1 s m':>15}")
print(f"{'contactlab (' + integ + ', 1 ms)':34} {ours[0]:16.2f} {1.0:13.2f} {ours[1]:13.7f} {ours[2]:15.2e}")
print(f"{'Drake (SAP, 1 ms)':34} {float(dr[1]):16.2f} {ours[0] / float(dr[1]):13.2f} {float(dr[2]):13.7f} {float(dr[3]):15.2e}")
print("for reference, not the protocol:")
print(f"{'Drake (similar, 1 ms)':34} {float(ds[1]):16.2f} {ours[0] / float(ds[1]):13.2f} {float(ds[2]):13.7f} {float(ds[3]):15.2e}")
PY
