#!/usr/bin/env python3
"""Writes the example meshes into examples/meshes/: a torus, a finger pad (a rounded slab) and a
block with a square pocket (for the peg-in-hole example). Closed, outward-oriented OBJ files."""
import math, pathlib

out = pathlib.Path(__file__).resolve().parent.parent / "examples" / "meshes"
out.mkdir(parents=True, exist_ok=True)

def write_obj(name, vertices, faces, comment):
    lines = [f"# {comment}"]
    lines += [f"v {x:.9g} {y:.9g} {z:.9g}" for x, y, z in vertices]
    lines += ["f " + " ".join(str(i + 1) for i in f) for f in faces]
    (out / name).write_text("\n".join(lines) + "\n")
    print("wrote", out / name, len(vertices), "vertices", len(faces), "faces")

def torus(R=0.08, r=0.03, n=48, m=24):
    v = [((R + r * math.cos(b)) * math.cos(a), (R + r * math.cos(b)) * math.sin(a), r * math.sin(b))
         for i in range(n) for j in range(m)
         for a, b in [(2 * math.pi * i / n, 2 * math.pi * j / m)]]
    f = []
    for i in range(n):
        for j in range(m):
            a, b = i * m + j, ((i + 1) % n) * m + j
            c, d = ((i + 1) % n) * m + (j + 1) % m, i * m + (j + 1) % m
            f += [(a, b, c), (a, c, d)]
    write_obj("torus.obj", v, f, f"torus R = {R} m, r = {r} m, axis z")

def rounded_slab(lx=0.04, ly=0.02, r=0.008, n=16):
    """A finger pad: a stadium-shaped (capsule cross-section) slab extruded along y."""
    # Cross-section in x-z: a rectangle lx × 2r with half-disc ends, as a polygon.
    ring = []
    for k in range(n + 1):
        t = -math.pi / 2 + math.pi * k / n
        ring.append((lx / 2 + r * math.cos(t), r * math.sin(t)))
    for k in range(n + 1):
        t = math.pi / 2 + math.pi * k / n
        ring.append((-lx / 2 + r * math.cos(t), r * math.sin(t)))
    m = len(ring)
    v = [(x, -ly / 2, z) for x, z in ring] + [(x, ly / 2, z) for x, z in ring]
    v += [(0.0, -ly / 2, 0.0), (0.0, ly / 2, 0.0)]
    c0, c1 = 2 * m, 2 * m + 1
    f = []
    for k in range(m):
        a, b = k, (k + 1) % m
        f += [(a, b, m + b), (a, m + b, m + a)]
        f += [(c0, b, a), (c1, m + a, m + b)]
    write_obj("finger_pad.obj", v, f, f"finger pad: stadium {lx} + 2·{r} m by {2*r} m, {ly} m deep")

def block_with_pocket(size=0.1, height=0.05, hole=0.03, depth=0.03):
    """A square block with a square blind hole (pocket) from its top face, as triangles."""
    s, h, q, b = size / 2, height, hole / 2, height - depth
    v = []
    def vid(p):
        if p not in v:
            v.append(p)
        return v.index(p)
    f = []
    def quad(a, b_, c, d):
        ia, ib, ic, id_ = (vid(p) for p in (a, b_, c, d))
        f.extend([(ia, ib, ic), (ia, ic, id_)])
    O = [(-s, -s), (s, -s), (s, s), (-s, s)]
    I = [(-q, -q), (q, -q), (q, q), (-q, q)]
    for k in range(4):
        (o0, o1), (i0, i1) = (O[k], O[(k + 1) % 4]), (I[k], I[(k + 1) % 4])
        # Top ring (facing up), outer walls, pocket walls (facing into the pocket).
        quad((*o0, h), (*o1, h), (*i1, h), (*i0, h))
        quad((*o0, 0.0), (*o1, 0.0), (*o1, h), (*o0, h))
        quad((*i1, b), (*i0, b), (*i0, h), (*i1, h))
    # Pocket floor (facing up) and bottom face (facing down), each split at the hole's corners.
    quad((-q, -q, b), (q, -q, b), (q, q, b), (-q, q, b))
    quad((-s, s, 0.0), (s, s, 0.0), (s, -s, 0.0), (-s, -s, 0.0))
    write_obj("block_with_pocket.obj", v, f,
              f"block {size} × {size} × {height} m with a {hole} m square pocket {depth} m deep from the top")

def tri(u):
    """Triangular thread profile: 0 at the root, 1 at the crest (u in [0, 1) along a pitch)."""
    u = u - math.floor(u)
    return 1.0 - abs(2.0 * u - 1.0)

def bolt(r_root=0.004, depth=0.0008, pitch=0.002, length=0.03, n=64, rows_per_pitch=10):
    """A threaded rod along z from 0 to `length`: radius r_root + depth·tri((z − pitch·θ/2π)/pitch)."""
    m = int(round(length / pitch * rows_per_pitch))
    radius = lambda a, z: r_root + depth * tri((z - pitch * a / (2 * math.pi)) / pitch)
    v = []
    for j in range(m + 1):
        z = length * j / m
        for i in range(n):
            a = 2 * math.pi * i / n
            r = radius(a, z)
            v.append((r * math.cos(a), r * math.sin(a), z))
    v += [(0.0, 0.0, 0.0), (0.0, 0.0, length)]
    c0, c1 = len(v) - 2, len(v) - 1
    f = []
    for j in range(m):
        for i in range(n):
            a, b = j * n + i, j * n + (i + 1) % n
            c, d = (j + 1) * n + (i + 1) % n, (j + 1) * n + i
            f += [(a, b, c), (a, c, d)]
    for i in range(n):
        f.append((c0, (i + 1) % n, i))
        f.append((c1, m * n + i, m * n + (i + 1) % n))
    write_obj("bolt.obj", v, f, f"threaded rod: root radius {r_root} m, thread depth {depth} m, pitch {pitch} m, length {length} m, axis z")

def nut(r_root=0.0042, depth=0.0008, pitch=0.002, thickness=0.008, flats=0.014, n=64, rows_per_pitch=10):
    """A hexagonal nut (across flats `flats`) along z from 0 to `thickness` with a threaded hole
    matching bolt() with 0.2 mm clearance: hole radius r_root + depth·tri(...)."""
    m = int(round(thickness / pitch * rows_per_pitch))
    radius = lambda a, z: r_root + depth * tri((z - pitch * a / (2 * math.pi)) / pitch)
    apothem = flats / 2
    def hex_r(a):
        # Distance from the axis to the hexagon's side along angle a (flats facing ±x at 0°).
        k = (a + math.pi / 6) % (math.pi / 3) - math.pi / 6
        return apothem / math.cos(k)
    v = []
    # Hole rings (inner) then outer rings at the two faces.
    for j in range(m + 1):
        z = thickness * j / m
        for i in range(n):
            a = 2 * math.pi * i / n
            r = radius(a, z)
            v.append((r * math.cos(a), r * math.sin(a), z))
    outer0 = len(v)
    for z in (0.0, thickness):
        for i in range(n):
            a = 2 * math.pi * i / n
            r = hex_r(a)
            v.append((r * math.cos(a), r * math.sin(a), z))
    f = []
    for j in range(m):
        for i in range(n):
            a, b = j * n + i, j * n + (i + 1) % n
            c, d = (j + 1) * n + (i + 1) % n, (j + 1) * n + i
            f += [(a, c, b), (a, d, c)]  # the hole faces the axis
    for i in range(n):
        i1 = (i + 1) % n
        # Outer wall.
        a, b = outer0 + i, outer0 + i1
        c, d = outer0 + n + i1, outer0 + n + i
        f += [(a, b, c), (a, c, d)]
        # Bottom face (z = 0, facing down) between the outer ring and the hole's bottom ring.
        f += [(outer0 + i, i, i1), (outer0 + i, i1, outer0 + i1)]
        # Top face (z = thickness, facing up).
        t0 = m * n
        f += [(outer0 + n + i, outer0 + n + i1, t0 + i1), (outer0 + n + i, t0 + i1, t0 + i)]
    write_obj("nut.obj", v, f, f"hex nut: across flats {flats} m, {thickness} m thick, threaded hole root radius {r_root} m, pitch {pitch} m")

torus()
rounded_slab()
block_with_pocket()
bolt()
nut()
