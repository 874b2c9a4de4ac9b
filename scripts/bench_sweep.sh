#!/usr/bin/env bash
# Sweep throughput (issue 13): a 64-run sweep of examples/ball_drop.toml (Latin-hypercube
# samples of the damped ball's dissipation) with --jobs 1 and --jobs 2, each run
# single-threaded in both; prints runs per second and their ratio. Repeats REPEATS times
# (default 3) and reports the best of each, since the machine's load moves wall times.
#
# Usage: scripts/bench_sweep.sh   (from any folder)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin="${CARGO_TARGET_DIR:-target}/release/contactlab"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release >&2
repeats=${REPEATS:-3}
best() { sort -g | head -1; }
for jobs in 1 2; do
  for r in $(seq "$repeats"); do
    out="$work/j$jobs-$r"
    start=$(date +%s.%N)
    "$bin" sweep examples/ball_drop.toml --samples 64 --range 'body.damped.contact.dissipation=0:1' \
      --out "$out" --jobs "$jobs" --quiet > /dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
  done > "$work/times$jobs"
  echo "jobs $jobs: wall $(tr '\n' ' ' < "$work/times$jobs")s" >&2
done
t1=$(best < "$work/times1"); t2=$(best < "$work/times2")
# Columns 1–22: everything before wall_time and host.
cmp -s <(cut -d, -f1-22 "$work/j1-1/summary.csv") <(cut -d, -f1-22 "$work/j2-1/summary.csv") \
  || { echo "bench_sweep: the summaries differ between --jobs 1 and 2" >&2; exit 1; }
printf 'sweep of 64 ball_drop runs: --jobs 1 %.2f runs/s, --jobs 2 %.2f runs/s, ratio %.2f (best of %s)\n' \
  "$(echo "64 / $t1" | bc -l)" "$(echo "64 / $t2" | bc -l)" "$(echo "$t1 / $t2" | bc -l)" "$repeats"
