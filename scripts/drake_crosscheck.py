"""Pressure-field queries against Drake and against a quadrature of the analytic field (issue 14).

For each configuration, both codes at a sweep of resolutions (Drake: the resolution hint):
force, torque (about the world origin) and area, their errors against an independent
quadrature of the analytic pressure field, and the time per query. Then, per configuration,
each code's time per query at the coarsest resolution reaching 0.1%, 0.01% and 0.001% force
error, their ratio, and which code is closer to the truth at equal resolution.

Run with the anchor venv (../shared/anchors/setup.sh installs pydrake):
    ~/.cache/contactlab-anchors/bin/python scripts/drake_crosscheck.py [--quick] [--only TEXT]
or scripts/drake_crosscheck.sh, which builds contactlab first. contactlab runs on one thread
(RAYON_NUM_THREADS=1), as Drake does.

The quadrature: contact with a rigid plane z = 0 integrates E·ε over the body's section by the
plane (ε the analytic extent, the same definitions in both codes: docs/pressure_field.md) with a
composite midpoint rule on a fine grid, refined until two grids agree to 1e-7; two compliant
spheres integrate the pressure on their equal-pressure surface, found by bisection along each
vertical line of the grid, as a graph z(x, y). Two compliant boxes: exact, from the analytic
fields (linear on each face pyramid; each pair of pyramids meets in one plane polygon), keeping
only the polygons across which the gradients oppose, as both codes define the surface (the
full equal-pressure set differs: by 8e-4 of the force in the configuration here).

Where Drake does not reach 0.1% within the sweep, it also runs at finer hints (EXTRA), so
that the ratio is measured rather than bounded where it can be.
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from pydrake.geometry import (AddCompliantHydroelasticProperties, AddRigidHydroelasticProperties,
                              Box, Capsule, Convex, Cylinder, Ellipsoid, FramePoseVector, GeometryFrame,
                              GeometryInstance, HalfSpace, HydroelasticContactRepresentation,
                              ProximityProperties, SceneGraph, Sphere)
from pydrake.math import RigidTransform, RollPitchYaw
from pydrake.systems.framework import DiagramBuilder

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("CONTACTLAB", os.path.join(ROOT, "target", "release", "contactlab"))
E = 1e5
RESOLUTIONS = [0.02, 0.014, 0.01, 0.007, 0.005, 0.0035, 0.0025, 0.00175, 0.00125]
# Drake only, where it has not reached 0.1% at the finest of RESOLUTIONS.
EXTRA = [0.000875, 0.000625]
THRESHOLDS = [1e-3, 1e-4, 1e-5]
POLY = HydroelasticContactRepresentation.kPolygon


# ---- configurations -------------------------------------------------------------------------
# Each: a name, the compliant body (shape dict, position, rpy), the other body (None: a rigid
# half space z ≤ 0; else a rigid box or a compliant sphere), and the analytic extent in the body
# frame for the quadrature.

def sphere_eps(r):
    return lambda q: 1.0 - np.linalg.norm(q, axis=-1) / r


def box_eps(size):
    h = np.array(size) / 2.0
    return lambda q: np.min(h - np.abs(q), axis=-1) / h.min()


def cylinder_eps(r, length):
    half = length / 2.0
    return lambda q: np.minimum(r - np.hypot(q[..., 0], q[..., 1]), half - np.abs(q[..., 2])) / min(r, half)


def capsule_eps(r, length):
    half = length / 2.0

    def eps(q):
        z = np.clip(q[..., 2], -half, half)
        return 1.0 - np.sqrt(q[..., 0] ** 2 + q[..., 1] ** 2 + (q[..., 2] - z) ** 2) / r
    return eps


def ellipsoid_eps(radii):
    a = np.array(radii)
    return lambda q: 1.0 - np.linalg.norm(q / a, axis=-1)


def rotation(rpy):
    return RollPitchYaw(*rpy).ToRotationMatrix().matrix()


CONFIGS = [
    dict(name="sphere on half space", shape=dict(type="sphere", radius=0.05), eps=sphere_eps(0.05),
         reach=0.05, position=[0, 0, 0.045], rpy=[0, 0, 0]),
    dict(name="box flat on half space", shape=dict(type="box", size=[0.1, 0.1, 0.1]),
         eps=box_eps([0.1, 0.1, 0.1]), reach=0.0867, position=[0, 0, 0.045], rpy=[0, 0, 0]),
    dict(name="box tilted 10° on half space", shape=dict(type="box", size=[0.1, 0.1, 0.1]),
         eps=box_eps([0.1, 0.1, 0.1]), reach=0.0867,
         position=[0, 0, 0.05 * math.cos(math.radians(10)) + 0.05 * math.sin(math.radians(10)) - 0.005],
         rpy=[math.radians(10), 0, 0]),
    dict(name="cylinder on its side", shape=dict(type="cylinder", radius=0.05, length=0.2),
         eps=cylinder_eps(0.05, 0.2), reach=0.112, position=[0, 0, 0.045], rpy=[math.pi / 2, 0, 0]),
    dict(name="capsule on its side", shape=dict(type="capsule", radius=0.05, length=0.2),
         eps=capsule_eps(0.05, 0.2), reach=0.15, position=[0, 0, 0.045], rpy=[math.pi / 2, 0, 0]),
    dict(name="ellipsoid on half space", shape=dict(type="ellipsoid", radii=[0.08, 0.05, 0.04]),
         eps=ellipsoid_eps([0.08, 0.05, 0.04]), reach=0.08, position=[0, 0, 0.036], rpy=[0, 0, 0]),
    dict(name="sphere on a rigid box", shape=dict(type="sphere", radius=0.05), eps=sphere_eps(0.05),
         reach=0.05, position=[0, 0, 0.045], rpy=[0, 0, 0],
         other=dict(kind="rigid box", size=[0.4, 0.4, 0.1], position=[0, 0, -0.05])),
    dict(name="sphere on a rigid prism's ridge", shape=dict(type="sphere", radius=0.05),
         eps=sphere_eps(0.05), reach=0.05, position=[0.01, 0, 0.045], rpy=[0, 0, 0],
         other=dict(kind="rigid prism")),
    dict(name="rotated boxes (E, 2E)", shape=dict(type="box", size=[0.1, 0.1, 0.1]),
         eps=box_eps([0.1, 0.1, 0.1]), reach=0.05, position=[0, 0, 0], rpy=[0, 0, 0],
         other=dict(kind="compliant box", size=[0.1, 0.1, 0.1], modulus=2 * E, position=[0.01, 0.0, 0.095],
                    rpy=[0.03, 0.0, math.pi / 6])),
    dict(name="unequal spheres (E, 3E)", shape=dict(type="sphere", radius=0.05), eps=sphere_eps(0.05),
         reach=0.05, position=[0, 0, 0], rpy=[0, 0, 0],
         other=dict(kind="compliant sphere", radius=0.04, modulus=3 * E, position=[0.005, 0.0, 0.084])),
]


# The rigid prism: a 90° ridge along y at z = 0 over a base at z = −0.1, 0.2 m long, as its six
# corners (an OBJ for both codes: contactlab's `convex` shape, Drake's Convex).
PRISM = [(-0.1, -0.1, -0.1), (0.1, -0.1, -0.1), (0.0, -0.1, 0.0),
         (-0.1, 0.1, -0.1), (0.1, 0.1, -0.1), (0.0, 0.1, 0.0)]
PRISM_FACES = [(0, 2, 1), (3, 4, 5), (0, 1, 4, 3), (1, 2, 5, 4), (2, 0, 3, 5)]


def write_prism(path):
    with open(path, "w") as f:
        for v in PRISM:
            f.write("v %r %r %r\n" % v)
        for face in PRISM_FACES:
            f.write("f " + " ".join(str(i + 1) for i in face) + "\n")


# ---- quadrature ----------------------------------------------------------------------------

def plane_quadrature(cfg, n):
    """Force, torque about the origin and area of E·ε over the section of the body by z = 0."""
    reach = cfg["reach"]
    c = np.array(cfg["position"], dtype=float)
    rot = rotation(cfg["rpy"])
    h = 2 * reach / n
    xs = c[0] - reach + h * (np.arange(n) + 0.5)
    ys = c[1] - reach + h * (np.arange(n) + 0.5)
    fz = tx = ty = area = 0.0
    for x0 in range(0, n, 512):  # in strips: bounded memory
        X, Y = np.meshgrid(xs[x0:x0 + 512], ys, indexing="ij")
        p = np.stack([X, Y, np.zeros_like(X)], axis=-1)
        q = (p - c) @ rot  # body frame: Rᵀ(p − c)
        eps = np.maximum(cfg["eps"](q), 0.0)
        w = E * eps * h * h
        fz += w.sum()
        # τ = Σ (x, y, 0) × (0, 0, f) = (y f, −x f, 0)
        tx += (Y * w).sum()
        ty -= (X * w).sum()
        area += np.count_nonzero(eps > 0) * h * h
    return np.array([0.0, 0.0, fz]), np.array([tx, ty, 0.0]), area


def sphere_pressure(x, c, r, e):
    """E·ε of a compliant sphere (radius r about c, modulus e) at points x (…, 3), and its
    gradient."""
    d = x - c
    dist = np.linalg.norm(d, axis=-1)
    return e * (1 - dist / r), -e / r * d / dist[..., None]


def sphere_pair_quadrature(cfg, n):
    """Two compliant spheres: the force on the lower one (the configuration's body) by
    −∫∫ p·(n/n_z) dx dy over the graph of the equal-pressure surface, found by bisection on each
    vertical line (p_a − p_b falls with z between the centres)."""
    o = cfg["other"]
    ca, cb = np.array(cfg["position"], float), np.array(o["position"], float)
    ra, rb, ea, eb = cfg["shape"]["radius"], o["radius"], E, o["modulus"]
    reach = min(ra, rb)
    h = 2 * reach / n
    xs = cb[0] - reach + h * (np.arange(n) + 0.5)
    ys = cb[1] - reach + h * (np.arange(n) + 0.5)
    force = np.zeros(3)
    torque = np.zeros(3)
    area = 0.0
    for x0 in range(0, n, 512):
        X, Y = np.meshgrid(xs[x0:x0 + 512], ys, indexing="ij")
        lo, hi = np.full_like(X, ca[2]), np.full_like(X, cb[2])
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            at = np.stack([X, Y, mid], -1)
            up = sphere_pressure(at, ca, ra, ea)[0] > sphere_pressure(at, cb, rb, eb)[0]
            lo = np.where(up, mid, lo)
            hi = np.where(up, hi, mid)
        pos = np.stack([X, Y, 0.5 * (lo + hi)], -1)
        (pa, ga), (pb, gb) = sphere_pressure(pos, ca, ra, ea), sphere_pressure(pos, cb, rb, eb)
        inside = (pa > 0) & (pb > 0)
        p = np.where(inside, pa, 0.0)
        # n ∥ ∇(p_a − p_b) (from a into b); n/n_z is the area factor of the graph.
        g = ga - gb
        nz = g / g[..., 2:3]
        f = (p * h * h)[..., None] * nz  # b is pushed up along n; a gets −f
        force += f.reshape(-1, 3).sum(0)
        torque += np.cross(pos, f).reshape(-1, 3).sum(0)
        area += (inside * np.linalg.norm(nz, axis=-1)).sum() * h * h
    return -force, -torque, area


def box_faces(size, centre, rot, modulus):
    """A compliant box's pressure as six linear pieces p_j(x) = k·(alpha_j + beta_j·x), one per
    face (its distance to the face, scaled by k = E / smallest half-size): p = min_j p_j inside."""
    h = np.array(size) / 2.0
    k = modulus / h.min()
    beta = np.concatenate([-rot.T, rot.T])  # rows: world gradients of h_k − q_k, h_k + q_k
    alpha = np.concatenate([h, h]) - beta @ np.array(centre, float)
    return k * alpha, k * beta


def clip_polygon(points, normal, offset):
    """The part of a convex polygon (rows of `points`) where normal·x + offset ≤ 0."""
    out = []
    for i in range(len(points)):
        p, q = points[i], points[(i + 1) % len(points)]
        dp, dq = normal @ p + offset, normal @ q + offset
        if dp <= 0:
            out.append(p)
        if (dp < 0 < dq) or (dq < 0 < dp):
            out.append(p + (q - p) * (dp / (dp - dq)))
    return np.array(out)


def polygon_integrals(points, pressure, normal):
    """Force p·n, torque about the origin and area of a planar convex polygon (rows of
    `points`, unit `normal`) with a linear pressure given at its corners: exact, by a fan of
    triangles (∫p = A·Σp/3, ∫x p = A/12·(Σ x_i p_i + Σx_i·Σp_i) per triangle)."""
    points, pressure = np.asarray(points, float), np.asarray(pressure, float)
    int_p, int_xp, area = 0.0, np.zeros(3), 0.0
    for t in range(1, len(points) - 1):
        tri, pt = points[[0, t, t + 1]], pressure[[0, t, t + 1]]
        a = 0.5 * np.linalg.norm(np.cross(tri[1] - tri[0], tri[2] - tri[0]))
        int_p += a * pt.sum() / 3
        int_xp += a / 12 * ((tri * pt[:, None]).sum(0) + tri.sum(0) * pt.sum())
        area += a
    return int_p * normal, np.cross(int_xp, normal), area


def box_pair_quadrature(cfg):
    """Two compliant boxes, integrated exactly from the analytic fields: each box's pressure is
    linear on each of its six face pyramids (where that face is the nearest), so the contact
    surface is, for each pair of pyramids (one per box), the plane where the two linear
    pressures are equal, within both pyramids. Each such polygon is cut from a large square by
    the pyramids' twelve bounding planes and kept where the gradients oppose across it
    (∇p_A·n > 0 > ∇p_B·n, n = (∇p_A − ∇p_B)/|·| from B into A: the contact surface's
    definition, as in both codes); the force on A is ∫ p·n dA, exact for the linear p."""
    o = cfg["other"]
    pieces = [box_faces(cfg["shape"]["size"], cfg["position"], rotation(cfg["rpy"]), E),
              box_faces(o["size"], o["position"], rotation(o["rpy"]), o["modulus"])]

    def region(alpha, beta, j):
        # Where piece j is the smallest and positive: (p_j − p_i) ≤ 0 for i ≠ j, −p_j ≤ 0.
        planes = [(beta[j] - beta[i], alpha[j] - alpha[i]) for i in range(6) if i != j]
        return planes + [(-beta[j], -alpha[j])]
    force, torque, area = np.zeros(3), np.zeros(3), 0.0
    (aa, ba), (ab, bb) = pieces
    for i in range(6):
        for j in range(6):
            g = ba[i] - bb[j]
            if np.linalg.norm(g) == 0 or ba[i] @ g <= 0 or bb[j] @ g >= 0:
                continue
            nrm = g / np.linalg.norm(g)
            # The plane g·x + (aa_i − ab_j) = 0: a large square in it, then the twelve cuts.
            x0 = -nrm * (aa[i] - ab[j]) / np.linalg.norm(g)
            e1 = np.cross(nrm, [1.0, 0.0, 0.0] if abs(nrm[0]) < 0.9 else [0.0, 1.0, 0.0])
            e1 /= np.linalg.norm(e1)
            e2 = np.cross(nrm, e1)
            poly = np.array([x0 + 10 * (sx * e1 + sy * e2) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
            for normal, offset in region(aa, ba, i) + region(ab, bb, j):
                if len(poly) < 3:
                    break
                poly = clip_polygon(poly, normal, offset)
            if len(poly) < 3:
                continue
            f, t, a = polygon_integrals(poly, aa[i] + poly @ ba[i], nrm)
            force, torque, area = force + f, torque + t, area + a
    return force, torque, area


def prism_quadrature(cfg, n):
    """A compliant sphere on the rigid prism: ∫ p·n dA over each of the prism's two slanted
    rectangles (the faces the sphere reaches), midpoint rule on a grid aligned with the
    rectangle's edges, so the ridge where the pressure is cut off is a grid line."""
    c = np.array(cfg["position"], float)
    r = cfg["shape"]["radius"]
    corners = np.array(PRISM)
    force, torque, area = np.zeros(3), np.zeros(3), 0.0
    for face in ((1, 2, 5, 4), (2, 0, 3, 5)):
        o, a, b = corners[face[0]], corners[face[1]], corners[face[3]]
        e1, e2 = a - o, b - o
        normal = np.cross(e1, e2)
        da = np.linalg.norm(normal) / (n * n)
        normal /= np.linalg.norm(normal)
        if np.dot(normal, o - corners.mean(0)) < 0:
            normal = -normal
        u = (np.arange(n) + 0.5) / n
        for s0 in range(0, n, 512):
            S, T = np.meshgrid(u[s0:s0 + 512], u, indexing="ij")
            x = o + S[..., None] * e1 + T[..., None] * e2
            p = np.maximum(sphere_pressure(x, c, r, E)[0], 0.0)
            w = p * da
            force += w.sum() * normal
            torque += np.cross((x * w[..., None]).reshape(-1, 3).sum(0), normal)
            area += np.count_nonzero(p > 0) * da
    # The force on the sphere (pushed out of the prism).
    return force, torque, area


def quadrature(cfg):
    kind = cfg.get("other", {}).get("kind")
    # Two boxes: exact (their fields are linear on each face pyramid). Otherwise the rule,
    # refined until two grids agree to 1e-7.
    if kind == "compliant box":
        return box_pair_quadrature(cfg)
    rule = {"compliant sphere": sphere_pair_quadrature, "rigid prism": prism_quadrature}.get(kind, plane_quadrature)
    n, last = 1024, None
    while True:
        f, t, a = rule(cfg, n)
        if last is not None and np.linalg.norm(f - last[0]) <= 1e-7 * np.linalg.norm(f) or n >= 16384:
            if last is not None:
                print(f"(quadrature: grids {n // 2} and {n} agree to {np.linalg.norm(f - last[0]) / np.linalg.norm(f):.1e})")
            return f, t, a
        last, n = (f, t, a), n * 2


# ---- contactlab ----------------------------------------------------------------------------

def toml_shape(shape):
    items = ", ".join(f"{k} = {json.dumps(v) if not isinstance(v, str) else chr(34) + v + chr(34)}"
                      for k, v in shape.items())
    return "{ " + items + " }"


def quaternion(rpy):
    r = RollPitchYaw(*rpy).ToQuaternion()
    return [r.w(), r.x(), r.y(), r.z()]


def ours(cfg, res, folder):
    other = cfg.get("other")
    if other is None:
        ground = '[[body]]\nname = "ground"\nfixed = true\nshape = { type = "halfspace" }\ncontact = { compliance = "rigid" }\n'
    elif other["kind"] == "rigid box":
        ground = (f'[[body]]\nname = "ground"\nfixed = true\nposition = {other["position"]}\n'
                  f'shape = {{ type = "box", size = {other["size"]} }}\ncontact = {{ compliance = "rigid" }}\n')
    elif other["kind"] == "rigid prism":
        write_prism(os.path.join(folder, "prism.obj"))
        ground = ('[[body]]\nname = "ground"\nfixed = true\n'
                  'shape = { type = "convex", file = "prism.obj" }\ncontact = { compliance = "rigid" }\n')
    elif other["kind"] == "compliant box":
        ground = (f'[[body]]\nname = "ground"\nfixed = true\nposition = {other["position"]}\n'
                  f'orientation = {quaternion(other["rpy"])}\nshape = {{ type = "box", size = {other["size"]} }}\n'
                  f'contact = {{ compliance = "compliant", hydroelastic_modulus = {other["modulus"]}, resolution = {res} }}\n')
    else:
        ground = (f'[[body]]\nname = "ground"\nfixed = true\nposition = {other["position"]}\n'
                  f'shape = {{ type = "sphere", radius = {other["radius"]} }}\n'
                  f'contact = {{ compliance = "compliant", hydroelastic_modulus = {other["modulus"]}, resolution = {res} }}\n')
    body = (f'[[body]]\nname = "body"\nmass = 1.0\nposition = {cfg["position"]}\n'
            f'orientation = {quaternion(cfg["rpy"])}\nshape = {toml_shape(cfg["shape"])}\n'
            f'contact = {{ compliance = "compliant", hydroelastic_modulus = {E}, resolution = {res} }}\n')
    path = os.path.join(folder, "scene.toml")
    with open(path, "w") as f:
        f.write('[model]\nkind = "pressure_field"\n\n' + ground + "\n" + body)
    env = dict(os.environ, RAYON_NUM_THREADS="1")

    def run(repeat):
        out = subprocess.run([BIN, "contact", path, "--json", "--repeat", str(repeat)], env=env,
                             capture_output=True, text=True, check=True).stdout
        return json.loads(out)
    probe = run(3)
    repeat = max(3, min(20000, int(0.3e6 / max(probe["micros_per_query"], 0.1))))
    result = run(repeat)
    pair = result["pairs"][0]
    # The pair's wrench is on its first body (the ground): the body gets the opposite.
    sign = -1.0 if pair["a"] == "ground" else 1.0
    force = sign * np.array(pair["force"])
    torque = sign * np.array(pair["torque"])
    return force, torque, pair["area"], pair["faces"], result["micros_per_query"]


# ---- Drake ---------------------------------------------------------------------------------

def drake_shape(shape):
    t = shape["type"]
    if t == "sphere":
        return Sphere(shape["radius"])
    if t == "box":
        return Box(*shape["size"])
    if t == "cylinder":
        return Cylinder(shape["radius"], shape["length"])
    if t == "capsule":
        return Capsule(shape["radius"], shape["length"])
    if t == "ellipsoid":
        return Ellipsoid(*shape["radii"])
    raise ValueError(t)


def drake(cfg, res):
    builder = DiagramBuilder()
    sg = builder.AddSystem(SceneGraph())
    src = sg.RegisterSource("crosscheck")
    soft = ProximityProperties()
    AddCompliantHydroelasticProperties(res, E, soft)
    rigid = ProximityProperties()
    AddRigidHydroelasticProperties(res, rigid)
    other = cfg.get("other")
    if other is None:
        second = (HalfSpace(), RigidTransform(), rigid)
    elif other["kind"] == "rigid box":
        second = (Box(*other["size"]), RigidTransform(other["position"]), rigid)
    elif other["kind"] == "rigid prism":
        second = (Convex(np.array(PRISM).T, "prism"), RigidTransform(), rigid)
    else:
        props = ProximityProperties()
        AddCompliantHydroelasticProperties(res, other["modulus"], props)
        if other["kind"] == "compliant box":
            pose = RigidTransform(RollPitchYaw(*other["rpy"]), other["position"])
            second = (Box(*other["size"]), pose, props)
        else:
            second = (Sphere(other["radius"]), RigidTransform(other["position"]), props)
    first = (drake_shape(cfg["shape"]), RigidTransform(RollPitchYaw(*cfg["rpy"]), cfg["position"]), soft)
    frames = []
    for i, (shape, pose, props) in enumerate([first, second]):
        f = sg.RegisterFrame(src, GeometryFrame(f"f{i}"))
        g = sg.RegisterGeometry(src, f, GeometryInstance(RigidTransform(), shape, f"g{i}"))
        sg.AssignRole(src, g, props)
        frames.append((f, pose, g))
    diagram = builder.Build()
    ctx = diagram.CreateDefaultContext()
    sg_ctx = sg.GetMyMutableContextFromRoot(ctx)
    poses = FramePoseVector()
    for f, pose, _ in frames:
        poses.set_value(f, pose)
    sg.get_source_pose_port(src).FixValue(sg_ctx, poses)
    query = sg.get_query_output_port().Eval(sg_ctx)
    surfaces = query.ComputeContactSurfaces(POLY)
    reps, start = 0, time.perf_counter()
    while reps < 3 or time.perf_counter() - start < 0.3:
        query.ComputeContactSurfaces(POLY)
        reps += 1
    micros = (time.perf_counter() - start) / reps * 1e6
    force, torque, area, faces = np.zeros(3), np.zeros(3), 0.0, 0
    body = frames[0][2]
    for s in surfaces:
        mesh, field = s.poly_mesh_W(), s.poly_e_MN()
        # The normal points out of N into M: the force on M is +p·n.
        sign = 1.0 if s.id_M() == body else -1.0
        for k in range(mesh.num_elements()):
            poly = mesh.element(k)
            verts = [mesh.vertex(poly.vertex(j)) for j in range(poly.num_vertices())]
            press = [field.EvaluateAtVertex(poly.vertex(j)) for j in range(poly.num_vertices())]
            f, t, a = polygon_integrals(verts, press, np.array(mesh.face_normal(k)))
            force, torque, area = force + sign * f, torque + sign * t, area + a
            faces += 1
    return force, torque, area, faces, micros


# ---- table ---------------------------------------------------------------------------------

def main():
    quick = "--quick" in sys.argv
    # --only TEXT: the configurations whose name contains TEXT.
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    resolutions = RESOLUTIONS[:5:2] if quick else RESOLUTIONS
    summary = []
    with tempfile.TemporaryDirectory() as folder:
        for cfg in (c for c in CONFIGS if only in c["name"]):
            f_true, t_true, a_true = quadrature(cfg)
            scale_t = max(np.linalg.norm(t_true), np.linalg.norm(f_true) * 0.01)
            print(f"\n## {cfg['name']}: quadrature F = {np.round(f_true, 6)} N, |τ| = {np.linalg.norm(t_true):.6f} N·m, "
                  f"area = {a_true * 1e4:.4f} cm²", flush=True)
            print("| resolution | code | F error (‖F − F_true‖ ÷ ‖F_true‖) | τ error (of max(‖τ‖, 1 cm·‖F‖)) | area error | polygons | µs/query |")
            print("|---|---|---|---|---|---|---|")
            rows = {"contactlab": [], "Drake": []}

            def measure(code, res):
                f, t, a, faces, us = ours(cfg, res, folder) if code == "contactlab" else drake(cfg, res)
                fe = np.linalg.norm(f - f_true) / np.linalg.norm(f_true)
                te = np.linalg.norm(t - t_true) / scale_t
                ae = a / a_true - 1
                rows[code].append((res, fe, us))
                print(f"| {res} | {code} | {fe * 100:.4f}% | {te * 100:.4f}% | {ae * 100:+.3f}% | {faces} | {us:.1f} |",
                      flush=True)
            for res in resolutions:
                measure("contactlab", res)
                measure("Drake", res)
            # Drake at finer hints where it has not reached 0.1%: a measured ratio, not a bound.
            for res in ([] if quick else EXTRA):
                if any(r[1] <= THRESHOLDS[0] for r in rows["Drake"]):
                    break
                measure("Drake", res)
            # Errors within 1e-12 of each other are ties (both exact, to round-off).
            pairs = list(zip(rows["contactlab"], rows["Drake"]))
            closer = sum(1 for o, d in pairs if o[1] < d[1] - 1e-12)
            ties = sum(1 for o, d in pairs if abs(o[1] - d[1]) <= 1e-12)
            line = [cfg["name"]]
            for th in THRESHOLDS:
                cells = []
                for code in ("contactlab", "Drake"):
                    hit = next((r for r in rows[code] if r[1] <= th), None)
                    cells.append(hit)
                o, d = cells
                if o and d:
                    line.append(f"{o[2]:.1f} @{o[0]} vs {d[2]:.1f} @{d[0]}: {d[2] / o[2]:.1f}×")
                elif o:
                    res, err, us = rows["Drake"][-1]
                    line.append(f"{o[2]:.1f} @{o[0]} vs never (Drake {err * 100:.3f}% at {res}, {us:.1f}): > {us / o[2]:.1f}×")
                else:
                    line.append("—")
            line.append(f"contactlab at {closer} of {len(resolutions)}" + (f", equal at {ties}" if ties else ""))
            summary.append(line)
    print("\n| configuration | ≤ 0.1%: ours vs Drake µs/query (÷) | ≤ 0.01% | ≤ 0.001% | closer to the truth at equal resolution |")
    print("|---|---|---|---|---|")
    for line in summary:
        print("| " + " | ".join(line) + " |")


if __name__ == "__main__":
    main()
