#!/usr/bin/env bash
# Creep of a held object under regularized friction (issue 35, item 4): the cylinder of Drake's
# gripper benchmark held still (examples/gripper_hold.toml: 94 g rigid cylinder between two
# compliant pads, μ = 1, gravity on, 2 s at dt = 1 ms) under the pressure field with
# stiction_speed 1e-6 to 1e-2 m/s (1e-4 the default) and grip forces 5, 10, 20 N per finger, beside Drake
# (scripts/drake_gripper.py --hold: hydroelastic, SAP) and MuJoCo (scripts/mujoco_gripper.py
# --hold: elliptic cones, implicitfast) with the same three grips.
#
# Also hertz, volume6d and peg at 10 N (one run each, with outputs).
#
# Creep speed: the vertical part of the cylinder's drift in the left finger's frame (contactlab:
# the `slip` measure, measures.csv, from 0.5 s; Drake and MuJoCo: the same pose difference)
# between 0.5 s and 2 s, divided by 1.5 s; negative is down. The step cost: contactlab's
# real-time factor without outputs (best of three, one thread) and its force evaluations per step,
# for each stiction_speed (the smaller, the stiffer the friction law Newton must solve).
#
# Usage: scripts/creep_gripper.sh   (ANCHOR_VENV overrides $HOME/.cache/contactlab-anchors; uses
# the existing release binary, BUILD=1 builds it first). Prints one table.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
venv=${ANCHOR_VENV:-$HOME/.cache/contactlab-anchors}
[ -x "$venv/bin/python" ] || "${ANCHORS:-$root/../shared/anchors}/setup.sh" >&2
bin="${CARGO_TARGET_DIR:-target}/release/contactlab"
[ "${BUILD:-0}" = 1 ] && cargo build --release >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 RAYON_NUM_THREADS=1

echo "creep_gripper.sh  $(date -u '+%Y-%m-%d %H:%M:%SZ')  commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+dirty')  load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-40s %8s %14s %10s %s\n' system grip_N creep_um_per_s rtf 'evals/step (steps short of Newton tolerance)'
for vs in 1e-6 1e-5 1e-4 1e-3 1e-2; do
  for grip in 5 10 20; do
    scene="$work/hold_${vs}_${grip}.toml"
    sed -e "s/^effort = 10.0/effort = ${grip}.0/" \
        -e "s/^kind = \"pressure_field\"/kind = \"pressure_field\"\nstiction_speed = ${vs}/" \
        examples/gripper_hold.toml > "$scene"
    "$bin" simulate "$scene" --out "$work/out" --quiet > /dev/null
    creep=$(python3 -c "
import csv
r = [x for x in csv.DictReader(open('$work/out/measures.csv')) if x['measure'] == 'slip']
print(f\"{float(r[-1]['dz']) / 1.5 * 1e6:.4g}\")")
    best=0; evals=
    for k in 1 2 3; do
      line=$("$bin" simulate "$scene" --out "$work/run" --quiet --no-output)
      rtf=$(sed -E 's/.*\(([0-9.]+) without outputs\).*/\1/' <<< "$line")
      evals=$(python3 -c "
import re, sys
t = sys.argv[1]
steps = int(re.search(r': (\\d+) steps', t)[1]); ev = int(re.search(r'(\\d+) force evaluations', t)[1])
short = re.search(r'(\\d+) steps short', t)
print(f'{ev / steps:.3f}' + (f' ({short[1]} short)' if short else ''))" "$line")
      best=$(python3 -c "print(max($best, $rtf))")
    done
    printf '%-40s %8s %14s %10s %s\n' "contactlab stiction_speed=$vs" "$grip" "$creep" "$best" "$evals"
  done
done
# The other models at 10 N, each with its own friction law and default integrator (the scene
# carries hertz materials in its contact.hertz sub-tables; `kind` alone changes).
for model in hertz volume6d peg; do
  sed -e "s/^kind = \"pressure_field\"/kind = \"${model}\"/" examples/gripper_hold.toml > "$work/hold_${model}.toml"
  line=$("$bin" simulate "$work/hold_${model}.toml" --out "$work/out" --quiet 2>/dev/null | tail -1)
  creep=$(python3 -c "
import csv
r = [x for x in csv.DictReader(open('$work/out/measures.csv')) if x['measure'] == 'slip']
print(f\"{float(r[-1]['dz']) / 1.5 * 1e6:.4g} (turned {float(r[-1]['rotation']) * 57.29578:.3g} deg)\")")
  rtf=$(sed -E 's/.*\(([0-9.]+) without outputs\).*/\1/' <<< "$line")
  printf '%-40s %8s %14s %10s\n' "contactlab $model (default settings)" 10 "$creep" "$rtf"
done
for grip in 5 10 20; do
  d=$("$venv/bin/python" scripts/drake_gripper.py --hold --grip "$grip" --runs 1 2>&1 | grep '^drake_gripper')
  printf '%-40s %8s %14s %10s\n' "Drake (SAP)" "$grip" "$(sed -E 's/.*creep_um_s=(\S+).*/\1/' <<< "$d")" "$(sed -E 's/.*realtime_factor=(\S+).*/\1/' <<< "$d")"
done
for grip in 5 10 20; do
  m=$("$venv/bin/python" scripts/mujoco_gripper.py --hold --grip "$grip" --runs 1 | grep '^mujoco_gripper')
  printf '%-40s %8s %14s %10s\n' "MuJoCo (implicitfast, elliptic)" "$grip" "$(sed -E 's/.*creep_um_s=(\S+).*/\1/' <<< "$m")" "$(sed -E 's/.*realtime_factor=(\S+).*/\1/' <<< "$m")"
done
# INSTRUCTIONS=1: the step cost without the machine's noise: callgrind's instruction count of the
# 10 N hold over 1.4 s of steps (a 2 s run minus a 0.6 s run, so set-up cancels), per step.
if [ "${INSTRUCTIONS:-0}" = 1 ]; then
  count() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$bin" simulate "$1" --out "$work/cg" \
      --quiet --no-output 2>&1 > /dev/null | grep -oE "Collected : [0-9]+" | grep -oE "[0-9]+"
  }
  for vs in 1e-6 1e-4 1e-2; do
    sed -e "s/^kind = \"pressure_field\"/kind = \"pressure_field\"\nstiction_speed = ${vs}/" \
        examples/gripper_hold.toml > "$work/i2.toml"
    sed -e 's/^duration = 2.0/duration = 0.6/' "$work/i2.toml" > "$work/i05.toml"
    a=$(count "$work/i2.toml"); b=$(count "$work/i05.toml")
    echo "contactlab stiction_speed=$vs, 10 N: $(( (a - b) / 1400 )) instructions per step (callgrind)"
  done
fi
