#!/usr/bin/env bash
# Our contact-query figures beside Drake's, measured in one run on this machine.
#
# Usage: scripts/bench_anchors.sh            (from any folder)
#   ANCHORS=path   the anchors folder (default: ../shared/anchors from the repository root)
#   CARGO_TARGET_DIR is honoured when locating the release binary.
# contactlab is timed twice: on every core (rayon's default) and on one thread
# (RAYON_NUM_THREADS=1), since Drake evaluates a pair on one thread.
# Prints a table on stdout and writes it (with the raw anchor output) to ./bench-results.txt.
# Progress goes to stderr.
set -euo pipefail

out_file="$PWD/bench-results.txt"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
anchors=${ANCHORS:-$root/../shared/anchors}
target=${CARGO_TARGET_DIR:-target}
bin="$target/release/contactlab"
cases=(sphere_halfspace sphere_box sphere_sphere box_box)
resolutions=(0.04 0.02 0.01 0.005 0.0025)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "bench_anchors: cargo build --release" >&2
cargo build --release >&2

echo "bench_anchors: running the Drake anchors ($anchors/run.sh; the first run may take minutes)" >&2
"$anchors/run.sh" drake_sphere_halfspace.py drake_surfaces.py > "$work/drake.txt"

# micros_per_query from a contactlab JSON report on stdin.
micros() { python3 -c 'import json, sys; print(json.load(sys.stdin)["micros_per_query"])'; }

mkdir -p "$work/ours"
for case in "${cases[@]}"; do
  for h in "${resolutions[@]}"; do
    scene="benches/scenes/${case}_${h}.toml"
    [ -f "$scene" ] || { echo "bench_anchors: no $scene, skipped" >&2; continue; }
    # A short run to learn the time per query, then about 1 s of queries (20 to 5000).
    us=$("$bin" contact "$scene" --json --repeat 20 | micros)
    n=$(python3 -c "import sys; us = float(sys.argv[1]); print(max(20, min(5000, int(1e6 / max(us, 1e-3)))))" "$us")
    echo "bench_anchors: $scene --repeat $n" >&2
    "$bin" contact "$scene" --json --repeat "$n" > "$work/ours/${case}_${h}.json"
    # The same on one thread: Drake evaluates a pair on one thread.
    RAYON_NUM_THREADS=1 "$bin" contact "$scene" --json --repeat "$(( (n + 1) / 2 ))" > "$work/ours/${case}_${h}.t1.json"
  done
done

{
  echo "bench_anchors.sh  $(date -u '+%Y-%m-%d %H:%M:%SZ')  commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo '+dirty')"
  echo "machine: $(nproc) cores, $(uname -sm)"
  echo
} > "$out_file"
cat "$out_file"
python3 "$root/scripts/bench_table.py" "$work/drake.txt" "$work/ours" "$out_file"
{
  echo
  echo "raw anchor output:"
  cat "$work/drake.txt"
} >> "$out_file"
echo "bench_anchors: wrote $out_file" >&2
