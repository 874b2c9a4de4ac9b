#!/usr/bin/env bash
# Simulation speed beside Drake (hydroelastic, SAP, dt = 1 ms) and MuJoCo (point contact,
# dt = 1 ms), measured in one run on this machine, for the four anchor scenes: under the
# pressure field model (examples/<scene>.toml) and under the Hertz model
# (examples/hertz_<scene>.toml).
#
# Then boxes_64 with hydroelastic modulus 1e8 beside Drake on the same grid
# (scripts/drake_boxes_modulus.py).
#
# Usage: scripts/bench_sim.sh        (from any folder; ANCHORS=path overrides ../shared/anchors)
# Prints a table: real-time factors (outputs off), their ratios, and the final height of body
# b0; boxes_64 under volume6d; then what the outputs cost on pencil_pinch and boxes_64 (issue
# 10: at most 20% more).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
anchors=${ANCHORS:-$root/../shared/anchors}
bin="${CARGO_TARGET_DIR:-target}/release/contactlab"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release >&2
echo "bench_sim: running the Drake and MuJoCo anchors" >&2
"$anchors/run.sh" drake_sim.py mujoco_sim.py > "$work/anchors.txt"

# The scene at $1 with one output row at the end (outputs off: the anchors write none either).
quiet_copy() {
  local file=$1 out=$2
  awk '{print} /^\[sim\]/ {print "output_dt = 1e9"}' "$file" > "$out"
}

# Best of three runs (the machine's other load only ever slows a run down); prints the
# real-time factor with outputs off and the final height of body b0.
measure() {
  local scene=$1 best=""
  local file=examples/$scene.toml
  [ -f "$file" ] || file=$work/$scene.toml
  quiet_copy "$file" "$work/$scene.quiet.toml"
  for k in 1 2 3; do
    line=$("$bin" simulate "$work/$scene.quiet.toml" --out "$work/$scene" --quiet 2>/dev/null)
    rtf=$(sed -E 's/.*real-time factor ([0-9.]+).*/\1/' <<< "$line")
    best=$(python3 -c "import sys; print(max(float(x) for x in sys.argv[1:] if x))" $rtf $best)
  done
  z=$(python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['body'] == 'b0']
print(rows[-1]['z'])" "$work/$scene/trajectory.csv")
  echo "$best $z"
}

# What the outputs cost: runs as written (a row every output_dt) and with outputs off,
# alternating, 31 of each. The wall time is the whole command's (setup, the run, and the
# writer thread's last rows), as a user timing it sees it: the best and the median times'
# ratios; then the median CPU times' ratio (user + system of all threads). On 2 cores the wall
# time of a 0.1–0.3 s run swings by about as much as the outputs cost: read the medians.
output_cost() {
  local scene=$1
  quiet_copy "examples/$scene.toml" "$work/$scene.quiet.toml"
  python3 - "$bin" "$scene" "examples/$scene.toml" "$work/$scene.quiet.toml" "$work" <<'PY'
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

for scene in sphere_drop box_drop boxes_16 boxes_64; do
  echo "$scene $(measure "$scene") $(measure "hertz_$scene")" >> "$work/ours.txt"
done

# boxes_64 at E = 1e8, ours and Drake's.
sed 's/hydroelastic_modulus = 1e6/hydroelastic_modulus = 1e8/' examples/boxes_64.toml > "$work/boxes_64_e8.toml"
venv=${ANCHOR_VENV:-$HOME/.cache/contactlab-anchors}
"$venv/bin/python" scripts/drake_boxes_modulus.py 1e8 2>&1 | grep -v '^WARNING:drake' > "$work/drake_e8.txt"
echo "$(measure boxes_64_e8)" > "$work/ours_e8.txt"

python3 - "$work/anchors.txt" "$work/ours.txt" "$work/drake_e8.txt" "$work/ours_e8.txt" <<'PY'
import re, sys
anchors, ours = open(sys.argv[1]).read(), open(sys.argv[2]).read().split("\n")
def table(name):
    block = anchors.split(f"== {name}")[1].split("==")[0]
    return {m[0]: (float(m[1]), float(m[2])) for m in re.findall(r"(\w+)\s+bodies=.*realtime_factor=([\d.]+) z0_final=([-\d.]+)", block)}
drake, mujoco = table("drake_sim.py"), table("mujoco_sim.py")
print(f"{'scene':12} {'contactlab rtf':>14} {'Drake rtf':>10} {'MuJoCo rtf':>10} {'÷ Drake':>8} {'÷ MuJoCo':>9} {'z(b0) ours':>11} {'Drake':>8} {'MuJoCo':>8} {'hertz rtf':>10} {'÷ MuJoCo':>9} {'z hertz':>8}")
for line in filter(None, ours):
    scene, rtf, z, hrtf, hz = line.split()
    rtf, z, hrtf, hz = float(rtf), float(z), float(hrtf), float(hz)
    d, m = drake[scene], mujoco[scene]
    print(f"{scene:12} {rtf:14.1f} {d[0]:10.2f} {m[0]:10.1f} {rtf/d[0]:8.1f} {rtf/m[0]:9.2f} {z:11.5f} {d[1]:8.5f} {m[1]:8.5f} {hrtf:10.1f} {hrtf/m[0]:9.2f} {hz:8.5f}")
drake_e8 = re.search(r"realtime_factor=([\d.]+) z0_final=([-\d.]+)", open(sys.argv[3]).read())
rtf, z = map(float, open(sys.argv[4]).read().split())
d_rtf, d_z = float(drake_e8[1]), float(drake_e8[2])
print(f"\nboxes_64, E = 1e8: contactlab rtf {rtf:.2f}, Drake {d_rtf:.2f} (÷ Drake {rtf/d_rtf:.1f}); final z of b0 {z:.5f}, Drake {d_z:.5f}")
PY

# boxes_64 under the 6D model (time stepping), beside the same anchors.
sed 's/^kind = "pressure_field"/kind = "volume6d"/; /^integrator = /d' examples/boxes_64.toml > "$work/boxes_64_volume6d.toml"
python3 - "$work/anchors.txt" "$(measure boxes_64_volume6d)" <<'PY'
import re, sys
anchors = open(sys.argv[1]).read()
def table(name):
    block = anchors.split(f"== {name}")[1].split("==")[0]
    return {m[0]: (float(m[1]), float(m[2])) for m in re.findall(r"(\w+)\s+bodies=.*realtime_factor=([\d.]+) z0_final=([-\d.]+)", block)}
drake, mujoco = table("drake_sim.py"), table("mujoco_sim.py")
rtf, z = map(float, sys.argv[2].split())
print(f"boxes_64 under volume6d: rtf {rtf:.2f}, ÷ Drake {rtf / drake['boxes_64'][0]:.1f}, ÷ MuJoCo {rtf / mujoco['boxes_64'][0]:.2f}; final z of b0 {z:.5f}")
PY

echo
echo "What the outputs cost (a row every 1 ms against outputs off):"
for scene in pencil_pinch boxes_64; do output_cost "$scene"; done
