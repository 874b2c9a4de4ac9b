#!/usr/bin/env python3
"""Writes the 3D pour scene of the PEG issue (our set-up after Williams et al. 2017, Sec. 6 and
the authors' testGeometry_5 script): a floor (top at z = 0) walled at x = ±5 and y = ±2, 4 m
high, and `--bodies` icosahedra (circumradius 0.5 m, mass 0.5 kg) released at (3, 0, 2) with
v_x = −5 m/s, turned 0.2 rad about (1, 2, 3), one every 0.5 s; 5 s; g = 9.81; no friction.

usage: peg_pour_3d.py [--dt H] [--formulation peg|standard] [--bodies N] > scene.toml
"""
import argparse
import math


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dt", type=float, default=0.01)
    ap.add_argument("--formulation", default="peg")
    ap.add_argument("--bodies", type=int, default=10)
    ap.add_argument("--duration", type=float, default=5.0)
    ap.add_argument("--mesh", default="meshes/icosahedron.obj")
    a = ap.parse_args()
    axis = [1 / math.sqrt(14), 2 / math.sqrt(14), 3 / math.sqrt(14)]
    half = 0.1
    q = [math.cos(half)] + [math.sin(half) * c for c in axis]
    out = [
        "# 3D pour (PEG issue, test 4): written by scripts/peg_pour_3d.py "
        f"--dt {a.dt} --formulation {a.formulation} --bodies {a.bodies}",
        "[model]",
        'kind = "peg"',
        f'formulation = "{a.formulation}"',
        "",
        "[sim]",
        f"duration = {a.duration}",
        f"dt = {a.dt}",
        "output_dt = 0.05",
        "",
        "[[body]]",
        'name = "floor"',
        "fixed = true",
        "position = [0, 0, -0.125]",
        'shape = { type = "box", size = [10.25, 4.25, 0.25] }',
    ]
    for name, pos, size in (
        ("wall_x_minus", (-5.0, 0, 1.75), (0.25, 4.25, 4)),
        ("wall_x_plus", (5.0, 0, 1.75), (0.25, 4.25, 4)),
        ("wall_y_minus", (0, -2.0, 1.75), (10.25, 0.25, 4)),
        ("wall_y_plus", (0, 2.0, 1.75), (10.25, 0.25, 4)),
    ):
        out += [
            "",
            "[[body]]",
            f'name = "{name}"',
            "fixed = true",
            f"position = [{pos[0]}, {pos[1]}, {pos[2]}]",
            f'shape = {{ type = "box", size = [{size[0]}, {size[1]}, {size[2]}] }}',
        ]
    for k in range(a.bodies):
        out += [
            "",
            "[[body]]",
            f'name = "ico{k:02d}"',
            "mass = 0.5",
            "position = [3, 0, 2]",
            f"orientation = [{q[0]:.15f}, {q[1]:.15f}, {q[2]:.15f}, {q[3]:.15f}]",
            "linear_velocity = [-5, 0, 0]",
            f"appear_time = {0.5 * k}",
            f'shape = {{ type = "convex", file = "{a.mesh}" }}',
        ]
    print("\n".join(out))


if __name__ == "__main__":
    main()
