#!/usr/bin/env bash
# Deterministic cost figures: instructions counted by valgrind's callgrind, which do not move
# with the machine's other load the way wall and CPU times do on a shared 2-core machine (the
# same binary's CPU time moves by 10–30% between runs here). For comparing two builds of a
# change, not for speed claims (those are wall-time ratios measured beside Drake and MuJoCo).
#
# Usage:
#   scripts/instructions.sh query SCENE.toml [BIN]      instructions per `contact` query
#   scripts/instructions.sh simulate SCENE.toml [BIN]   instructions of a whole `simulate` run
#   scripts/instructions.sh step SCENE.toml [BIN]       instructions per step of a fixed-step run
# BIN defaults to target/release/contactlab (build it first). One thread (RAYON_NUM_THREADS=1).
# A query's count is the difference of runs with --repeat 1100 and 100, divided by 1000, so
# that start-up (parsing, meshing) cancels. A step's is the difference of the scene's run and
# a run of its first step, both with outputs off (`output_dt = 1e9`, as scripts/bench_sim.sh
# runs), divided by the steps between: the mean over the run (a drop's free fall and its rest).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:?usage: instructions.sh query|simulate|step SCENE.toml [BIN]}
scene=${2:?usage: instructions.sh query|simulate|step SCENE.toml [BIN]}
bin=${3:-$root/target/release/contactlab}
command -v valgrind > /dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Instructions of one run of the binary with the given arguments.
count() {
  RAYON_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$bin" "$@" \
    > /dev/null 2> "$work/cg.err" || { cat "$work/cg.err" >&2; exit 1; }
  grep -oE "Collected : [0-9]+" "$work/cg.err" | grep -oE "[0-9]+"
}

case $mode in
  query)
    few=$(count contact "$scene" --json --repeat 100)
    many=$(count contact "$scene" --json --repeat 1100)
    echo "$(( (many - few) / 1000 )) instructions per query"
    ;;
  simulate)
    echo "$(count simulate "$scene" --out "$work/out" --quiet) instructions"
    ;;
  step)
    # The scene with outputs off, at its own duration and at its first step (dt from [sim]).
    value() { awk -F'=' -v key="$1" '$1 ~ "^" key " *$" {v = $2; sub(/#.*/, "", v); gsub(/ /, "", v); print v; exit}' "$scene"; }
    dt=$(value dt)
    duration=$(value duration)
    [ -n "$dt" ] && [ -n "$duration" ] || { echo "instructions.sh: $scene needs [sim] dt and duration" >&2; exit 1; }
    at() {
      awk -v d="$1" '/^duration *=/ {print "duration = " d; next} {print} /^\[sim\]/ {print "output_dt = 1e9"}' \
        "$scene" > "$work/at.toml"
      count simulate "$work/at.toml" --out "$work/out" --quiet --no-output
    }
    steps=$(python3 -c "print(round($duration / $dt))")
    whole=$(at "$duration")
    first=$(at "$dt")
    echo "$(( (whole - first) / (steps - 1) )) instructions per step ($steps steps)"
    ;;
  *)
    echo "instructions.sh: the mode is query, simulate or step, not '$mode'" >&2
    exit 2
    ;;
esac
