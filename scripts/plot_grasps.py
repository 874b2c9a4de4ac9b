#!/usr/bin/env python3
"""The pictures of docs/manipulation.md: the pencil's pivot angle against time for three grip
forces (examples/pencil_gripper.toml with its pads' effort_limit changed) and the ruler's sag
against time under each model (examples/ruler_pinch.toml through `contactlab compare`), from the
runs' measures.csv. Also prints the tables of the page.

Usage: scripts/plot_grasps.py [BIN]   (BIN: the contactlab binary, default target/release/contactlab;
  needs matplotlib: the anchors venv has it, ~/.cache/contactlab-anchors/bin/python)
"""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "contactlab")


def measure(path, name):
    """(t, rotation in degrees) of measure `name` in a measures.csv."""
    with open(path) as f:
        return [(float(r["t"]), math.degrees(float(r["rotation"]))) for r in csv.DictReader(f) if r["measure"] == name]


def pencil(work):
    text = open(os.path.join(ROOT, "examples", "pencil_gripper.toml")).read()
    series = {}
    for grip in (0.2, 0.5, 2.0):
        scene = os.path.join(ROOT, "examples", f".pencil_grip_{grip}.toml")
        try:
            with open(scene, "w") as f:
                f.write(re.sub(r"effort_limit = [0-9.]+", f"effort_limit = {grip}", text))
            out = os.path.join(work, f"pencil_{grip}")
            subprocess.run([BIN, "simulate", scene, "--out", out, "--quiet"], check=True, stdout=subprocess.DEVNULL)
        finally:
            os.remove(scene)
        series[grip] = measure(os.path.join(out, "measures.csv"), "pivot")
    print("pencil pivot angle (deg) at t = 0.25, 0.5, 1 s:")
    for grip, s in series.items():
        at = {round(t, 6): a for t, a in s}
        print(f"  {grip} N: {at[0.25]:.3f} {at[0.5]:.3f} {at[1.0]:.3f}")
    plt.figure(figsize=(6, 3.5))
    for grip, s in series.items():
        plt.plot([t for t, _ in s], [a for _, a in s], label=f"grip {grip} N per pad")
    plt.yscale("symlog", linthresh=0.1)
    plt.xlabel("t (s)")
    plt.ylabel("pivot angle (deg)")
    plt.title("pencil_gripper: the pencil's rotation since 0.1 s")
    plt.legend()
    plt.tight_layout()
    plt.savefig(os.path.join(ROOT, "docs", "img", "pencil_pivot.png"), dpi=100)


def ruler(work):
    out = os.path.join(work, "ruler")
    scene = os.path.join(ROOT, "examples", "ruler_pinch.toml")
    subprocess.run([BIN, "compare", scene, "--out", out, "--quiet", "--models", "pressure_field,hertz,volume6d"],
                   check=True, stdout=subprocess.DEVNULL)
    plt.figure(figsize=(6, 3.5))
    print("ruler sag after 2 s (deg):")
    for model in ("pressure_field", "volume6d", "hertz"):
        s = measure(os.path.join(out, model, "measures.csv"), "sag")
        print(f"  {model}: {s[-1][1]:.3f}")
        plt.plot([t for t, _ in s], [a for _, a in s], label=model)
    plt.xlabel("t (s)")
    plt.ylabel("sag (deg)")
    plt.title("ruler_pinch (5 N grip): the ruler's rotation since 0.2 s")
    plt.legend()
    plt.tight_layout()
    plt.savefig(os.path.join(ROOT, "docs", "img", "ruler_sag.png"), dpi=100)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as work:
        pencil(work)
        ruler(work)
