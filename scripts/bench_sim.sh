#!/usr/bin/env bash
# Simulation speed beside MuJoCo (point contact, dt = 1 ms) and Drake (hydroelastic, SAP,
# dt = 1 ms), measured in one run on this machine, for the four anchor scenes: under the
# pressure field model (examples/<scene>.toml), under the Hertz model
# (examples/hertz_<scene>.toml), and boxes_64 under volume6d; then boxes_64 at hydroelastic
# modulus 1e8 beside Drake on the same grid (scripts/drake_boxes_modulus.py).
#
# The protocol (issue 37): one thread each (RAYON_NUM_THREADS=1, OMP_NUM_THREADS=1), outputs
# off, best of three for both codes, side by side in one run. MuJoCo's anchor
# (../shared/anchors/mujoco_sim.py) takes the best of three fresh runs of
# mj_step(m, d, nstep=1000) itself; it runs before and after ours, and the better of its two
# figures is the one compared (the machine's other load only ever slows a run down). Ours:
# `contactlab simulate SCENE --quiet --no-output` with `output_dt = 1e9` (one row at the end,
# no energies sampled between), after a warm-up, best of three of the
# summary's "without outputs" real-time factor (the integration alone: the clock starts after
# the scene is built and meshed, as the anchors' timed regions start after their models are
# built). Drake's anchor (drake_sim.py) runs once: it is 10-100x slower than either.
#
# Usage: scripts/bench_sim.sh [--no-drake] [--outputs]
#   (from any folder; ANCHORS=path overrides ../shared/anchors, ANCHOR_VENV the anchors venv,
#   $HOME/.cache/contactlab-anchors, made by ../shared/anchors/setup.sh if missing)
#   --no-drake   MuJoCo only (Drake's columns and the E = 1e8 row left out)
#   --outputs    also what the outputs cost on pencil_pinch and boxes_64 (issue 10: at most
#                20% more), 31 alternating runs of each
# Prints a table: real-time factors, their ratios and the final height of body b0.
# Fair only on an idle machine: check `uptime` first.
set -euo pipefail

drake=1
outputs=0
for arg in "$@"; do
  case $arg in
    --no-drake) drake=0 ;;
    --outputs) outputs=1 ;;
    *) echo "bench_sim.sh: unknown option '$arg' (--no-drake, --outputs)" >&2; exit 2 ;;
  esac
done

source "$(dirname "$0")/bench_setup.sh"

echo "bench_sim: cargo build --release" >&2
cargo build --release >&2

echo "bench_sim: MuJoCo (before ours)" >&2
"$anchors/run.sh" mujoco_sim.py > "$work/mujoco1.txt"

# The scene at $1 with one output row at the end: outputs off (the anchors write none and
# compute no energies between; --no-output alone keeps sampling every output_dt).
quiet_copy() {
  local file=$1 out=$2
  awk '{print} /^\[sim\]/ {print "output_dt = 1e9"}' "$file" > "$out"
}

# Best of three runs after a warm-up; prints the real-time factor without outputs and the
# final height of body b0.
measure() {
  local name best=0
  name=$(basename "$1" .toml)
  quiet_copy "$1" "$work/$name.quiet.toml"
  local file=$work/$name.quiet.toml
  "$bin" simulate "$file" --out "$work/$name" --quiet --no-output > /dev/null 2>> "$work/stderr.txt"
  for k in 1 2 3; do
    line=$("$bin" simulate "$file" --out "$work/$name" --quiet --no-output 2>> "$work/stderr.txt")
    rtf=$(sed -E 's/.*\(([0-9.]+) without outputs\).*/\1/' <<< "$line")
    best=$(python3 -c "import sys; print(max(float(x) for x in sys.argv[1:]))" "$rtf" "$best")
  done
  z=$(python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['body'] == 'b0']
print(rows[-1]['z'])" "$work/$name/trajectory.csv")
  echo "$best $z"
}

echo "bench_sim: contactlab" >&2
sed 's/^kind = "pressure_field"/kind = "volume6d"/; /^integrator = /d' examples/boxes_64.toml \
  > "$work/boxes_64_volume6d.toml"
for scene in sphere_drop box_drop boxes_16 boxes_64; do
  echo "$scene pressure_field $(measure "examples/$scene.toml")" >> "$work/ours.txt"
  echo "$scene hertz $(measure "examples/hertz_$scene.toml")" >> "$work/ours.txt"
done
echo "boxes_64 volume6d $(measure "$work/boxes_64_volume6d.toml")" >> "$work/ours.txt"

echo "bench_sim: MuJoCo (after ours)" >&2
"$anchors/run.sh" mujoco_sim.py > "$work/mujoco2.txt"

touch "$work/drake.txt" "$work/drake_e8.txt" "$work/ours_e8.txt"
if [ "$drake" = 1 ]; then
  echo "bench_sim: Drake" >&2
  "$anchors/run.sh" drake_sim.py > "$work/drake.txt"
  sed 's/hydroelastic_modulus = 1e6/hydroelastic_modulus = 1e8/' examples/boxes_64.toml > "$work/boxes_64_e8.toml"
  "$venv/bin/python" scripts/drake_boxes_modulus.py 1e8 2>&1 | grep -v '^WARNING:drake' > "$work/drake_e8.txt"
  measure "$work/boxes_64_e8.toml" > "$work/ours_e8.txt"
fi

echo "bench_sim.sh  $(date -u '+%Y-%m-%d %H:%M:%SZ')  commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo '+dirty')"
echo "machine: $(env -u OMP_NUM_THREADS nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); one thread each, outputs off, best of three"
python3 - "$work" <<'PY'
import re, sys
work = sys.argv[1]
def table(path):
    return {m[0]: (float(m[1]), float(m[2])) for m in
            re.findall(r"(\w+)\s+bodies=.*realtime_factor=([\d.]+) z0_final=([-\d.]+)", open(path).read())}
m1, m2 = table(f"{work}/mujoco1.txt"), table(f"{work}/mujoco2.txt")
mujoco = {k: max(m1[k], m2[k]) for k in m1}
drake = table(f"{work}/drake.txt")
print(f"{'scene':12} {'model':15} {'contactlab':>10} {'MuJoCo':>8} {'(runs)':>15} {'÷ MuJoCo':>9} {'Drake':>7} {'÷ Drake':>8} {'z(b0) ours':>11} {'MuJoCo':>8} {'Drake':>8}")
for line in open(f"{work}/ours.txt").read().split("\n"):
    if not line:
        continue
    scene, model, rtf, z = line.split()
    rtf, z = float(rtf), float(z)
    m = mujoco[scene]
    runs = f"{m1[scene][0]:.1f} / {m2[scene][0]:.1f}"
    d = drake.get(scene)
    dcols = f"{d[0]:7.2f} {rtf / d[0]:8.1f}" if d else f"{'-':>7} {'-':>8}"
    dz = f"{d[1]:8.5f}" if d else f"{'-':>8}"
    print(f"{scene:12} {model:15} {rtf:10.1f} {m[0]:8.1f} {runs:>15} {rtf / m[0]:9.2f} {dcols} {z:11.5f} {m[1]:8.5f} {dz}")
e8 = open(f"{work}/drake_e8.txt").read()
if e8:
    d = re.search(r"realtime_factor=([\d.]+) z0_final=([-\d.]+)", e8)
    rtf, z = map(float, open(f"{work}/ours_e8.txt").read().split())
    print(f"\nboxes_64, E = 1e8: contactlab rtf {rtf:.2f}, Drake {float(d[1]):.2f} (÷ Drake {rtf / float(d[1]):.1f}); final z of b0 {z:.5f}, Drake {float(d[2]):.5f}")
PY

[ "$outputs" = 1 ] || exit 0

# What the outputs cost: runs as written (a row every output_dt) and with outputs off,
# alternating, 31 of each. The wall time is the whole command's (setup, the run, and the
# writer thread's last rows), as a user timing it sees it: the best and the median times'
# ratios; then the median CPU times' ratio (user + system of all threads). On 2 cores the wall
# time of a 0.1–0.3 s run swings by about as much as the outputs cost: read the medians.
# (Both cores: the writer thread's share of them is the point.)
output_cost() {
  local scene=$1
  quiet_copy "examples/$scene.toml" "$work/$scene.quiet.toml"
  env -u RAYON_NUM_THREADS python3 - "$bin" "$scene" "examples/$scene.toml" "$work/$scene.quiet.toml" "$work" <<'PY'
import os, resource, statistics, subprocess, sys, time
binary, scene, rows, quiet, work = sys.argv[1:6]
def run(scene_file, out):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([binary, "simulate", scene_file, "--out", os.path.join(work, out), "--quiet"],
                   capture_output=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu
w, o = [], []
for _ in range(31):
    w.append(run(rows, scene + ".rows"))
    o.append(run(quiet, scene + ".quiet"))
bw, bo = min(x[0] for x in w), min(x[0] for x in o)
cw, co = statistics.median(x[1] for x in w), statistics.median(x[1] for x in o)
mw, mo = statistics.median(x[0] for x in w), statistics.median(x[0] for x in o)
print(f"{scene:12} with outputs {mw:.3f} s, without {mo:.3f} s (medians): {mw / mo:.2f}x wall (best {bw:.3f} against {bo:.3f} s: {bw / bo:.2f}x); CPU {cw:.3f} s against {co:.3f} s: {cw / co:.2f}x")
PY
}

echo
echo "What the outputs cost (a row every 1 ms against outputs off):"
for scene in pencil_pinch boxes_64; do output_cost "$scene"; done
