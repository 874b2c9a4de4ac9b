#!/usr/bin/env bash
# Speed of a 7-link arm under gravity and PD control, no contact (examples/pd_arm.toml: implicit
# Euler, dt = 1 ms, 2 s), beside MuJoCo (scripts/mujoco_arm.py) and Drake (scripts/drake_arm.py),
# measured in one run on this machine, one thread each, best of three after a warm-up.
#
# Usage: scripts/bench_arm.sh   (from any folder; ANCHOR_VENV overrides the anchors venv,
#   $HOME/.cache/contactlab-anchors, made by ../shared/anchors/setup.sh if missing)
# contactlab: `contactlab simulate examples/pd_arm.toml --quiet --no-output` with
# RAYON_NUM_THREADS=1; its figure is the summary's "without outputs" real-time factor (the
# integration alone: the wall clock starts after the scene is built and meshed, as MuJoCo's and
# Drake's timed regions start after their models are built).
# Prints steps per second of each, the ratios, and each one's final joint positions.
set -euo pipefail

source "$(dirname "$0")/bench_setup.sh"

echo "bench_arm: cargo build --release" >&2
cargo build --release >&2

echo "bench_arm: contactlab (a warm-up, then best of three)" >&2
"$bin" simulate examples/pd_arm.toml --out "$work/warm" --quiet --no-output > /dev/null
for k in 1 2 3; do
  "$bin" simulate examples/pd_arm.toml --out "$work/run$k" --quiet --no-output > "$work/ours$k.txt"
done
echo "bench_arm: MuJoCo" >&2
"$venv/bin/python" scripts/mujoco_arm.py > "$work/mujoco.txt"
echo "bench_arm: Drake" >&2
"$venv/bin/python" scripts/drake_arm.py 2>&1 | grep -v '^WARNING:drake' > "$work/drake.txt"
"$venv/bin/python" scripts/drake_arm.py --no-geometry 2>&1 | grep -v '^WARNING:drake' >> "$work/drake.txt"

echo "bench_arm.sh  $(date -u '+%Y-%m-%d %H:%M:%SZ')  commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo '+dirty')"
echo "machine: $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores, $(uname -sm); one thread each"
python3 - "$work" <<'PY'
import csv, math, re, sys
work = sys.argv[1]
# contactlab: best of three "without outputs" real-time factors, steps from the summary.
best, steps, integ = 0.0, None, None
for k in (1, 2, 3):
    line = open(f"{work}/ours{k}.txt").read()
    m = re.search(r"with (\S+): (\d+) steps .*\(([\d.]+) without outputs\)", line)
    integ, steps = m[1], int(m[2])
    best = max(best, float(m[3]))
ours = steps / (2.0 / best)
# contactlab's final joint positions from the links' orientations (trajectory.csv, last rows).
rows = {}
for r in csv.DictReader(open(f"{work}/run3/trajectory.csv")):
    rows[r["body"]] = r
def rot(r):
    w, x, y, z = (float(r[k]) for k in ("qw", "qx", "qy", "qz"))
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
def mul_t(a, b):  # a^T b
    return [[sum(a[k][i] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
q, parent = [], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
for i in range(7):
    R = rot(rows[f"link{i+1}"]); rel = mul_t(parent, R)
    q.append(math.atan2(rel[1][0], rel[0][0]) if i % 2 == 0 else math.atan2(rel[0][2], rel[2][2]))
    parent = R
qours = "[" + ", ".join(f"{x:.5f}" for x in q) + "]"
mj = open(f"{work}/mujoco.txt").read(); dr = open(f"{work}/drake.txt").read()
pick = lambda text, key: re.search(key + r"\s+steps=\d+ wall_s=[\d.]+ steps_per_s=(\d+) q_final=(\[.*\])", text)
mjn, mjl = pick(mj, "mujoco_arm nstep"), pick(mj, "mujoco_arm python_loop")
drc, drn = pick(dr, "drake_arm capsules"), pick(dr, "drake_arm no_geometry")
print(mj.splitlines()[0]); print(dr.splitlines()[0])
print()
print(f"{'system':34} {'steps/s':>9} {'contactlab ÷':>13}  final q")
print(f"{'contactlab (' + integ + ')':34} {ours:9.0f} {1.0:13.2f}  {qours}")
print(f"{'MuJoCo (implicitfast, nstep)':34} {float(mjn[1]):9.0f} {ours / float(mjn[1]):13.3f}  {mjn[2]}")
print(f"{'Drake (SAP, capsules)':34} {float(drc[1]):9.0f} {ours / float(drc[1]):13.2f}  {drc[2]}")
print("for reference, not the protocol:")
print(f"{'MuJoCo (Python loop writing ctrl)':34} {float(mjl[1]):9.0f} {ours / float(mjl[1]):13.3f}  {mjl[2]}")
print(f"{'Drake (SAP, no geometry)':34} {float(drn[1]):9.0f} {ours / float(drn[1]):13.2f}  {drn[2]}")
print(f"{'targets':34} {'':9} {'':13}  [0.50000, -0.60000, 0.30000, -1.20000, 0.40000, 0.80000, -0.50000]")
PY
