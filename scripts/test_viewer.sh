#!/usr/bin/env bash
# The viewer page in a real browser (docs/viewer.md): simulates one example of each contact
# model with --html, loads each page in headless Chromium with software WebGL (SwiftShader),
# fails on any console error, and at the last frame checks from a screenshot that the moving
# bodies are drawn where trajectory.csv puts them (scripts/test_viewer.mjs).
#
# Needs Debian's chromium (`apt-get install -y chromium`; another binary: CHROMIUM=path) and
# Node.js with npm: playwright-core (pinned below) drives the installed Chromium and never
# downloads a browser. Screenshots go to target/viewer-test/ (or VIEWER_SHOTS).
set -euo pipefail
cd "$(dirname "$0")/.."
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
PLAYWRIGHT_CORE_VERSION=1.64.1
EXAMPLES="ball_drop torus_on_ground hertz_ball_on_box volume6d_tipping_box peg_pour_3d"

if [ ! -x "$CHROMIUM" ]; then
  echo "test_viewer: no Chromium at $CHROMIUM: apt-get install -y chromium, or set CHROMIUM" >&2
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
shots="${VIEWER_SHOTS:-target/viewer-test}"
mkdir -p "$shots"

cargo build --release --locked --quiet
(
  cd "$work"
  npm init -y >/dev/null
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --silent "playwright-core@$PLAYWRIGHT_CORE_VERSION"
)
cp scripts/test_viewer.mjs "$work/"
pages=()
for example in $EXAMPLES; do
  ./target/release/contactlab simulate "examples/$example.toml" --out "$work/$example" --html --quiet >/dev/null
  pages+=("$work/$example/view.html")
done
node "$work/test_viewer.mjs" "$CHROMIUM" "$shots" "${pages[@]}"
