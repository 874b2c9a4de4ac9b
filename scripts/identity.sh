#!/usr/bin/env bash
# The refactoring check: simulate every example and print one SHA-256 per output file, so two
# builds can be compared line by line (`diff`). Outputs go under DIR (default /tmp/identity).
# Usage: scripts/identity.sh [BINARY] [DIR] > hashes.txt
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/contactlab}
dir=${2:-/tmp/identity}
rm -rf "$dir"
for scene in examples/*.toml; do
    name=$(basename "$scene" .toml)
    "$bin" simulate "$scene" --out "$dir/$name" --quiet >"$dir.$name.log" 2>&1 \
        || echo "$name: exit $?" >&2
    for f in "$dir/$name"/*.csv; do
        echo "$name/$(basename "$f") $(sha256sum "$f" | cut -d' ' -f1)"
    done
done
