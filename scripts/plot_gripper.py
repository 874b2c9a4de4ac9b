#!/usr/bin/env python3
"""The picture of Drake's gripper benchmark in docs/manipulation.md (docs/img/gripper_slip.png):
the cylinder's vertical drift in the left finger's frame against time while shaken
(examples/gripper_shake.toml, 0.3 s to 5.3 s), for contactlab at the scene's stiction_speed
(3e-6 m/s) and at the default (1e-4 m/s), Drake (scripts/drake_gripper.py, SAP) and MuJoCo
(scripts/mujoco_gripper.py), from each one's untimed warm-up run (--csv). Log scale: the
drift's size, down.

Usage: ~/.cache/contactlab-anchors/bin/python scripts/plot_gripper.py [BIN]
  (the anchors venv has pydrake, mujoco and matplotlib; BIN defaults to target/release/contactlab)
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "contactlab")
SCENE = os.path.join(ROOT, "examples", "gripper_shake.toml")
env = dict(os.environ, RAYON_NUM_THREADS="1", OMP_NUM_THREADS="1")


def ours(tmp, stiction):
    text = open(SCENE).read().replace("\nstiction_speed = 3e-6", f"\nstiction_speed = {stiction}", 1)
    scene = os.path.join(tmp, f"shake_{stiction}.toml")
    open(scene, "w").write(text)
    out = os.path.join(tmp, f"out_{stiction}")
    subprocess.run([BIN, "simulate", scene, "--out", out, "--quiet"], check=True, env=env, stdout=subprocess.DEVNULL)
    rows = [r for r in csv.DictReader(open(os.path.join(out, "measures.csv"))) if r["measure"] == "slip"]
    return [float(r["t"]) for r in rows], [float(r["dz"]) for r in rows]


def other(tmp, script):
    path = os.path.join(tmp, script + ".csv")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", script + ".py"), "--runs", "1", "--csv", path],
                   check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = list(csv.DictReader(open(path)))
    return [float(r["t"]) for r in rows], [float(r["dz"]) for r in rows]


with tempfile.TemporaryDirectory() as tmp:
    curves = [
        ("contactlab, stiction_speed 3e-6", ours(tmp, "3e-6")),
        ("contactlab, stiction_speed 1e-4 (default)", ours(tmp, "1e-4")),
        ("Drake, hydroelastic, SAP", other(tmp, "drake_gripper")),
        ("MuJoCo, elliptic cones", other(tmp, "mujoco_gripper")),
    ]
fig, ax = plt.subplots(figsize=(7, 4))
for label, (t, dz) in curves:
    pts = [(a, -b) for a, b in zip(t, dz) if -b > 0]
    ax.plot([p[0] for p in pts], [p[1] for p in pts], label=label)
    print(f"{label}: vertical drift at {t[-1]:.1f} s: {dz[-1]:.3e} m")
ax.set_yscale("log")
ax.set_xlabel("time (s)")
ax.set_ylabel("cylinder's drift down in the finger's frame (m)")
ax.set_title("Drake's gripper benchmark: 10 N grip, shaken at 2 Hz, 0.15 m")
ax.grid(True, which="both", alpha=0.3)
ax.legend(fontsize=8)
fig.tight_layout()
out = os.path.join(ROOT, "docs", "img", "gripper_slip.png")
fig.savefig(out, dpi=100)
if shutil.which("pngquant"):  # 256 colours, as the other pictures
    subprocess.run(["pngquant", "--force", "--ext", ".png", "256", out], check=False)
print("wrote", out)
