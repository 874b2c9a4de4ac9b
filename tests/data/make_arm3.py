"""Writes arm3.urdf and arm3.xml: one 3-link arm (revolute, revolute, prismatic) in both formats.

The URDF is the source: joint origins (xyz, fixed-axis rpy), axes, inertial origins and full
tensors. The MJCF gets the same body frames in different spellings (quat; euler with the default
eulerseq "xyz", moving axes; axisangle), joint 2 anchored off its body's origin (pos), and the
inertias as fullinertia in body axes or diaginertia with an orientation. Computed with mpmath at
40 digits and written as the shortest decimals that read back the same doubles. Run: python3 tests/data/make_arm3.py
"""

import os

from mpmath import mp, mpf, matrix, cos, sin, atan2, asin, sqrt, acos, eigsy

mp.dps = 40
HERE = os.path.dirname(os.path.abspath(__file__))


def rx(a):
    return matrix([[1, 0, 0], [0, cos(a), -sin(a)], [0, sin(a), cos(a)]])


def ry(a):
    return matrix([[cos(a), 0, sin(a)], [0, 1, 0], [-sin(a), 0, cos(a)]])


def rz(a):
    return matrix([[cos(a), -sin(a), 0], [sin(a), cos(a), 0], [0, 0, 1]])


def rpy(r, p, y):
    """URDF: fixed axes X, Y, Z: R = Rz(yaw) Ry(pitch) Rx(roll)."""
    return rz(y) * ry(p) * rx(r)


def quat(m):
    """w x y z of a rotation matrix (w > 0)."""
    t = m[0, 0] + m[1, 1] + m[2, 2]
    w = sqrt(1 + t) / 2
    if w < mpf("0.3"):
        raise ValueError("pick another rotation (w small)")
    return [w, (m[2, 1] - m[1, 2]) / (4 * w), (m[0, 2] - m[2, 0]) / (4 * w), (m[1, 0] - m[0, 1]) / (4 * w)]


def euler_xyz_moving(m):
    """MuJoCo's euler with eulerseq "xyz" (moving axes): R = Rx(a) Ry(b) Rz(c)."""
    b = asin(m[0, 2])
    a = atan2(-m[1, 2], m[2, 2])
    c = atan2(-m[0, 1], m[0, 0])
    assert mp.norm(rx(a) * ry(b) * rz(c) - m) < mpf(10) ** -35
    return [a, b, c]


def axisangle(m):
    w, x, y, z = quat(m)
    s = sqrt(x * x + y * y + z * z)
    angle = 2 * atan2(s, w)
    return [x / s, y / s, z / s, angle]


def tensor(ixx, iyy, izz, ixy, ixz, iyz):
    return matrix([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])


def diag_frame(i):
    """Principal moments and a proper rotation V with i = V diag(d) V^T."""
    d, v = eigsy(i)
    if mp.det(v) < 0:
        v[:, 2] = -v[:, 2]
    return [d[0], d[1], d[2]], v


def f(x):
    return repr(float(x))


def fs(xs):
    return " ".join(f(x) for x in xs)


def vec(xs):
    return matrix([mpf(x) for x in xs])


# The arm, URDF's way. Strings so that both files start from the same decimal numbers.
JOINTS = [
    # name, type, parent, child, xyz, rpy, axis
    ("joint1", "continuous", "world", "link1", ["0.1", "-0.05", "0.3"], ["0.3", "-0.2", "0.5"], ["0.3", "0.8", "0.5"]),
    ("joint2", "continuous", "link1", "link2", ["0.02", "0.25", "-0.35"], ["-0.6", "0.45", "1.1"], ["-0.2", "0.5", "0.84"]),
    ("joint3", "prismatic", "link2", "link3", ["0.3", "0.04", "-0.1"], ["0.9", "0.7", "-0.4"], ["0.6", "-0.3", "0.74"]),
]
DAMPING = {"joint1": "0.05", "joint2": "0.03", "joint3": "0.5"}
LINKS = [
    # name, mass, inertial xyz, inertial rpy, (ixx iyy izz ixy ixz iyz)
    ("link1", "1.7", ["0.05", "0.12", "-0.2"], ["0.4", "0.1", "-0.7"], ["0.031", "0.027", "0.012", "0.004", "-0.003", "0.002"]),
    ("link2", "1.1", ["0.1", "-0.03", "0.15"], ["1.2", "-0.3", "0.25"], ["0.018", "0.022", "0.009", "-0.0025", "0.0015", "-0.003"]),
    ("link3", "0.6", ["-0.04", "0.07", "0.11"], ["-0.5", "0.8", "2.0"], ["0.006", "0.0045", "0.0052", "0.0008", "-0.0006", "0.0011"]),
]
# MJCF: joint 2's anchor in its body frame (the body moves back by it).
ANCHOR2 = ["0.05", "-0.02", "0.03"]


def check_inertia(name, i):
    d, _ = diag_frame(i)
    d = sorted(d)
    assert d[0] > 0, name
    assert d[0] + d[1] > d[2], name


def urdf():
    out = ['<?xml version="1.0"?>', "<!-- Written by make_arm3.py; the same arm as arm3.xml. -->", '<robot name="arm3">', '  <link name="world"/>']
    for name, mass, xyz, r, ine in LINKS:
        check_inertia(name, tensor(*[mpf(x) for x in ine]))
        ixx, iyy, izz, ixy, ixz, iyz = ine
        out += [
            f'  <link name="{name}">',
            "    <inertial>",
            f'      <origin xyz="{" ".join(xyz)}" rpy="{" ".join(r)}"/>',
            f'      <mass value="{mass}"/>',
            f'      <inertia ixx="{ixx}" iyy="{iyy}" izz="{izz}" ixy="{ixy}" ixz="{ixz}" iyz="{iyz}"/>',
            "    </inertial>",
            "  </link>",
        ]
    for name, kind, parent, child, xyz, r, axis in JOINTS:
        out += [
            f'  <joint name="{name}" type="{kind}">',
            f'    <parent link="{parent}"/>',
            f'    <child link="{child}"/>',
            f'    <origin xyz="{" ".join(xyz)}" rpy="{" ".join(r)}"/>',
            f'    <axis xyz="{" ".join(axis)}"/>',
            f'    <dynamics damping="{DAMPING[name]}"/>',
        ]
        if kind == "prismatic":
            out.append('    <limit lower="-10" upper="10" effort="100" velocity="10"/>')
        out.append("  </joint>")
    out.append("</robot>")
    return "\n".join(out) + "\n"


def mjcf():
    (_, _, _, _, xyz1, r1, a1), (_, _, _, _, xyz2, r2, a2), (_, _, _, _, xyz3, r3, a3) = JOINTS
    (_, m1, c1, ri1, i1), (_, m2, c2, ri2, i2), (_, m3, c3, ri3, i3) = LINKS
    t = lambda xs: tensor(*[mpf(x) for x in xs])
    rot = lambda xs: rpy(*[mpf(x) for x in xs])
    p2 = vec(ANCHOR2)
    # Body 1: pos, quat; its inertia as fullinertia in body axes.
    q1 = quat(rot(r1))
    full1 = rot(ri1) * t(i1) * rot(ri1).T
    # Body 2: the joint frame is X T(p2), so X's pos is xyz2 - R2 p2; euler (moving x, y, z).
    R2 = rot(r2)
    pos2 = vec(xyz2) - R2 * p2
    e2 = euler_xyz_moving(R2)
    # Its inertia in its body frame: the link frame is T(p2) there; diaginertia + quat.
    d2, v2 = diag_frame(rot(ri2) * t(i2) * rot(ri2).T)
    com2 = vec(c2) + p2
    # Body 3 in body 2's frame: p2 + xyz3; axisangle; diaginertia + axisangle.
    pos3 = p2 + vec(xyz3)
    aa3 = axisangle(rot(r3))
    d3, v3 = diag_frame(rot(ri3) * t(i3) * rot(ri3).T)
    assert mp.norm(v2 * mp.diag(d2) * v2.T - rot(ri2) * t(i2) * rot(ri2).T) < mpf(10) ** -30
    out = f"""<!-- Written by make_arm3.py; the same arm as arm3.urdf (body frames = URDF joint frames,
     but for link2, whose hinge is anchored at pos = {" ".join(ANCHOR2)} in its body frame). -->
<mujoco model="arm3">
  <compiler angle="radian"/>
  <worldbody>
    <body name="link1" pos="{" ".join(xyz1)}" quat="{fs(q1)}">
      <joint name="joint1" type="hinge" axis="{" ".join(a1)}" damping="{DAMPING["joint1"]}"/>
      <inertial pos="{" ".join(c1)}" mass="{m1}" fullinertia="{fs([full1[0, 0], full1[1, 1], full1[2, 2], full1[0, 1], full1[0, 2], full1[1, 2]])}"/>
      <body name="link2" pos="{fs(pos2)}" euler="{fs(e2)}">
        <joint name="joint2" type="hinge" pos="{" ".join(ANCHOR2)}" axis="{" ".join(a2)}" damping="{DAMPING["joint2"]}"/>
        <inertial pos="{fs(com2)}" quat="{fs(quat(v2))}" mass="{m2}" diaginertia="{fs(d2)}"/>
        <body name="link3" pos="{fs(pos3)}" axisangle="{fs(aa3)}">
          <joint name="joint3" type="slide" axis="{" ".join(a3)}" range="-10 10" damping="{DAMPING["joint3"]}"/>
          <inertial pos="{" ".join(c3)}" axisangle="{fs(axisangle(v3))}" mass="{m3}" diaginertia="{fs(d3)}"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
"""
    return out


with open(os.path.join(HERE, "arm3.urdf"), "w") as file:
    file.write(urdf())
with open(os.path.join(HERE, "arm3.xml"), "w") as file:
    file.write(mjcf())
