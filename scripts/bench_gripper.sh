#!/usr/bin/env bash
# Drake's gripper benchmark (issue 35): examples/gripper_shake.toml — a 1.089 kg two-finger
# gripper holds a 94 g rigid cylinder with 10 N per finger (compliant pads, μ = 1) while shaken
# vertically at 2 Hz, 0.15 m amplitude, for 5 s after 0.3 s of settling, dt = 1 ms — under the
# pressure field (implicit Euler, the default), beside Drake (scripts/drake_gripper.py:
# hydroelastic, SAP) and MuJoCo (scripts/mujoco_gripper.py: elliptic cones, implicitfast), in one
# run on this machine, one thread each, best of three after a warm-up.
#
# Usage: scripts/bench_gripper.sh   (from any folder; ANCHOR_VENV overrides the anchors venv,
#   $HOME/.cache/contactlab-anchors, made by ../shared/anchors/setup.sh if missing)
# It uses the existing release binary (${CARGO_TARGET_DIR:-target}/release/contactlab) as is:
# BUILD=1 makes it run `cargo build --release` first.
# contactlab: an untimed warm-up with outputs (the slip: the `slip` measure, the cylinder's drift
# in the left finger's frame from 0.3 s to the end), then `simulate --quiet --no-output` three
# times with RAYON_NUM_THREADS=1; its figure is the summary's "without outputs" real-time factor
# (the clock starts after the scene is built and meshed, as Drake's timed AdvanceTo starts after
# its diagram is built and MuJoCo's after its model is compiled).
# The scene sets stiction_speed = 3e-6 m/s; the same scene at the default 1e-4 m/s is run too
# (same protocol) and printed below it.
# Prints the load average (the machine is shared), each system's real-time factor, contactlab's
# ratio to it, and the slip: its size, its vertical part and the rotation.
set -euo pipefail

source "$(dirname "$0")/bench_setup.sh"
scene=examples/gripper_shake.toml

if [ "${BUILD:-0}" = 1 ]; then
  echo "bench_gripper: cargo build --release" >&2
  cargo build --release >&2
fi
[ -x "$bin" ] || { echo "bench_gripper: no $bin (cargo build --release, or BUILD=1)" >&2; exit 1; }

load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "bench_gripper: contactlab (a warm-up with outputs, then best of three without)" >&2
"$bin" simulate "$scene" --out "$work/warm" --quiet > "$work/ours0.txt"
for k in 1 2 3; do
  "$bin" simulate "$scene" --out "$work/run$k" --quiet --no-output > "$work/ours$k.txt"
done
echo "bench_gripper: contactlab at the default stiction_speed (1e-4 m/s), the same protocol" >&2
sed 's/^stiction_speed = 3e-6/stiction_speed = 1e-4/' "$scene" > "$work/default.toml"
"$bin" simulate "$work/default.toml" --out "$work/dwarm" --quiet > "$work/def0.txt"
for k in 1 2 3; do
  "$bin" simulate "$work/default.toml" --out "$work/drun$k" --quiet --no-output > "$work/def$k.txt"
done
echo "bench_gripper: MuJoCo" >&2
"$venv/bin/python" scripts/mujoco_gripper.py > "$work/mujoco.txt"
echo "bench_gripper: Drake" >&2
"$venv/bin/python" scripts/drake_gripper.py 2>&1 | grep -v '^WARNING:drake' > "$work/drake.txt"
load1=$(cut -d' ' -f1-3 /proc/loadavg)

echo "bench_gripper.sh  $(date -u '+%Y-%m-%d %H:%M:%SZ')  commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo '+dirty')  binary $(date -u -r "$bin" '+%Y-%m-%d %H:%M:%SZ')"
echo "machine: $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores, $(uname -sm); one thread each; load average $load0 before, $load1 after"
python3 - "$work" <<'PY'
import csv, math, re, sys
work = sys.argv[1]
def contactlab(prefix, warm):
    best, integ = 0.0, None
    for k in (1, 2, 3):
        m = re.search(r"with (\S+): (\d+) steps .*\(([\d.]+) without outputs\)", open(f"{work}/{prefix}{k}.txt").read())
        integ = m[1]
        best = max(best, float(m[3]))
    last = [r for r in csv.DictReader(open(f"{work}/{warm}/measures.csv")) if r["measure"] == "slip"][-1]
    return integ, (best, float(last["translation"]), float(last["dz"]), math.degrees(float(last["rotation"])))
integ, ours = contactlab("ours", "warm")
_, default = contactlab("def", "dwarm")
pick = lambda text, key: re.search(key + r" \S+ steps=\d+ wall_s=\S+ realtime_factor=(\S+) slip_m=(\S+) slip_z=(\S+) slip_rot_deg=(\S+)", text)
mj_text, dr_text = open(f"{work}/mujoco.txt").read(), open(f"{work}/drake.txt").read()
mj, dr = pick(mj_text, "mujoco_gripper"), pick(dr_text, "drake_gripper")
print(mj_text.splitlines()[0]); print(dr_text.splitlines()[0])
print()
print(f"{'system':36} {'real-time factor':>16} {'contactlab ÷':>13} {'slip m':>10} {'slip z m':>10} {'rotation °':>11}")
print(f"{'contactlab (' + integ + ', 1 ms)':36} {ours[0]:16.3f} {1.0:13.2f} {ours[1]:10.2e} {ours[2]:10.2e} {ours[3]:11.2e}")
print(f"{'  the same, stiction_speed 1e-4':36} {default[0]:16.3f} {ours[0] / default[0]:13.2f} {default[1]:10.2e} {default[2]:10.2e} {default[3]:11.2e}")
for name, m in (("Drake (hydroelastic, SAP, 1 ms)", dr), ("MuJoCo (elliptic, implicitfast, 1 ms)", mj)):
    print(f"{name:36} {float(m[1]):16.3f} {ours[0] / float(m[1]):13.2f} {float(m[2]):10.2e} {float(m[3]):10.2e} {float(m[4]):11.2e}")
PY
