#!/usr/bin/env python3
"""Runs the planar and 3D pours (scripts/peg_pour_2d.py, peg_pour_3d.py) under PEG and the
standard model at h = 0.001, 0.005, 0.01, 0.016 and prints, per run, the median and mean overlap
(solver.csv's `overlap`, every step), the wall time per step, the LCP unknowns and Lemke pivots
per step, and the fall-backs.

usage: scripts/peg_pour_table.py [--binary target/release/contactlab] [--only 2d|3d]
(run from the repository root after `cargo build --release`)
"""
import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile

STEPS = (0.001, 0.005, 0.01, 0.016)


def run(binary, generator, dt, formulation, workdir):
    scene = os.path.join(workdir, f"scene_{formulation}_{dt}.toml")
    text = subprocess.run(
        [sys.executable, generator, "--dt", str(dt), "--formulation", formulation],
        check=True, capture_output=True, text=True,
    ).stdout
    # The 3D scene names its mesh relative to examples/.
    text = text.replace('file = "meshes/', f'file = "{os.path.abspath("examples/meshes")}/')
    with open(scene, "w") as f:
        f.write(text)
    out = os.path.join(workdir, f"out_{formulation}_{dt}")
    done = subprocess.run([binary, "simulate", scene, "--out", out, "--quiet"], capture_output=True, text=True)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[-1]
    wall = float(re.search(r"wall ([0-9.]+) s", done.stdout).group(1))
    rows = list(csv.DictReader(open(os.path.join(out, "solver.csv"))))
    overlap = [float(r["overlap"]) for r in rows]
    return {
        "median": statistics.median(overlap),
        "mean": statistics.mean(overlap),
        "us_per_step": 1e6 * wall / len(rows),
        "unknowns": statistics.mean(float(r["unknowns"]) for r in rows),
        "pivots": statistics.mean(float(r["iterations"]) for r in rows),
        "fallbacks": sum(int(float(r["fallbacks"])) for r in rows),
    }, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/contactlab")
    ap.add_argument("--only", choices=["2d", "3d"])
    a = ap.parse_args()
    pours = [("2d", "scripts/peg_pour_2d.py", "m²"), ("3d", "scripts/peg_pour_3d.py", "m³")]
    with tempfile.TemporaryDirectory() as workdir:
        for name, generator, unit in pours:
            if a.only and a.only != name:
                continue
            print(f"\n{name} pour: overlap ({unit}) per step, median and mean; µs, unknowns and pivots per step")
            print(f"{'h (s)':>7} {'formulation':>11} {'median':>10} {'mean':>10} {'µs/step':>9} {'unknowns':>9} {'pivots':>8} {'fallbacks':>9}")
            for dt in STEPS:
                for formulation in ("peg", "standard"):
                    r, error = run(a.binary, generator, dt, formulation, workdir)
                    if r is None:
                        print(f"{dt:>7} {formulation:>11} failed: {error}")
                        continue
                    print(
                        f"{dt:>7} {formulation:>11} {r['median']:>10.2e} {r['mean']:>10.2e} {r['us_per_step']:>9.0f}"
                        f" {r['unknowns']:>9.1f} {r['pivots']:>8.1f} {r['fallbacks']:>9}"
                    )


if __name__ == "__main__":
    main()
