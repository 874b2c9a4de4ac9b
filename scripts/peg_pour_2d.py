#!/usr/bin/env python3
"""Writes the planar pour scene of the PEG issue (after Williams et al. 2017, Sec. 6): a
container (floor at z = 0, walls at x = ±0.8, 2 m high; fixed boxes) and 20 random convex
polygons (seeded: the hull of 3–8 points drawn uniformly in a disc of radius 0.125; mass 0.25,
moment of inertia 0.003) entering alternately at (−0.5, 0.8) with v_x = +0.7 and at (0.5, 0.8)
with v_x = −0.7, one every 0.25 s; 5 s; g = 9.8.

usage: peg_pour_2d.py [--dt H] [--formulation peg|standard] [--seed S] > scene.toml
"""
import argparse
import math
import random


def hull(points):
    """Convex hull, counter-clockwise, without collinear points (monotone chain)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 1e-12:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 1e-12:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def centroid(poly):
    a = cx = cz = 0.0
    for (x0, z0), (x1, z1) in zip(poly, poly[1:] + poly[:1]):
        c = x0 * z1 - x1 * z0
        a += c
        cx += (x0 + x1) * c
        cz += (z0 + z1) * c
    return cx / (3 * a), cz / (3 * a), a / 2


def polygon(rng):
    while True:
        n = rng.randint(3, 8)
        pts = []
        for _ in range(n):
            r = 0.125 * math.sqrt(rng.random())
            t = 2 * math.pi * rng.random()
            pts.append((r * math.cos(t), r * math.sin(t)))
        poly = hull(pts)
        if len(poly) < 3:
            continue
        cx, cz, area = centroid(poly)
        if area < 1e-4:  # slivers: draw again
            continue
        return [(x - cx, z - cz) for x, z in poly]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dt", type=float, default=0.01)
    ap.add_argument("--formulation", default="peg")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bodies", type=int, default=20)
    ap.add_argument("--duration", type=float, default=5.0)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    out = [
        "# Planar pour (PEG issue, test 3): written by scripts/peg_pour_2d.py "
        f"--dt {a.dt} --formulation {a.formulation} --seed {a.seed}",
        "[model]",
        'kind = "peg"',
        f'formulation = "{a.formulation}"',
        "planar = true",
        "",
        "[sim]",
        f"duration = {a.duration}",
        f"dt = {a.dt}",
        "gravity = [0, 0, -9.8]",
        "",
        "[[body]]",
        'name = "floor"',
        "fixed = true",
        "position = [0, 0, -0.2]",
        'shape = { type = "box", size = [2.0, 1, 0.4] }',
    ]
    for side, x in (("left", -1.0), ("right", 1.0)):
        out += [
            "",
            "[[body]]",
            f'name = "wall_{side}"',
            "fixed = true",
            f"position = [{x}, 0, 0.8]",
            'shape = { type = "box", size = [0.4, 1, 2.4] }',
        ]
    for k in range(a.bodies):
        left = k % 2 == 0
        poly = polygon(rng)
        verts = ", ".join(f"[{x:.6f}, {z:.6f}]" for x, z in poly)
        out += [
            "",
            "[[body]]",
            f'name = "p{k:02d}"',
            "mass = 0.25",
            "moment_of_inertia = 0.003",
            f"position = [{-0.5 if left else 0.5}, 0, 0.8]",
            f"linear_velocity = [{0.7 if left else -0.7}, 0, 0]",
            f"appear_time = {0.25 * k}",
            f'shape = {{ type = "polygon", vertices = [{verts}] }}',
        ]
    print("\n".join(out))


if __name__ == "__main__":
    main()
