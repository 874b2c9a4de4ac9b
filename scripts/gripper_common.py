"""The gripper benchmark's setup, shared by scripts/drake_gripper.py and scripts/mujoco_gripper.py
(the numbers of examples/gripper_shake.toml and examples/gripper_hold.toml, which are the
reference; docs/manipulation.md describes the benchmark).

Frames (world): z up, the fingers close along y, the cylinder's axis is z. Lengths in m.
"""
import math
import argparse

DT = 1e-3
GRAVITY = -9.81
# The gripper body (Drake's simple_gripper.sdf "body"): shapeless, on a vertical prismatic joint.
GRIPPER_MASS, GRIPPER_INERTIA = 0.988882, (0.162992, 0.162992, 0.164814)
# Fingers: a compliant box pad each, 50 g, on a prismatic joint of the gripper body along y.
FINGER_MASS, PAD_SIZE = 0.05, (0.028, 0.008, 0.028)
PAD_MODULUS, PAD_DISSIPATION, PAD_RESOLUTION = 1e6, 2.0, 0.004
FINGER_Y = 0.044  # the joint origins at -/+ FINGER_Y: the pads' faces touch the cylinder at q = 0
# The held object: a rigid cylinder, axis z, centred on the world origin.
# Drake's resolution hint 0.004 meshes the cylinder with 64 segments around, as the scene's
# resolution 0.00491 does ours (our resolution bounds edges, with chords at most 0.8 of it).
CYL_MASS, CYL_RADIUS, CYL_LENGTH, CYL_RESOLUTION = 0.094, 0.04, 0.1, 0.004
MU = 1.0
# The shaker: PD servo on the vertical joint, x(t) = A (1 - cos w (t - T0)) sampled every H.
KP, KD = 1e5, 700.0
AMPLITUDE, FREQUENCY, T_SETTLE, SHAKE_TIME, SAMPLE = 0.15, 2.0, 0.3, 5.0, 0.01
GRIP = 10.0


def shake_samples(shake=True):
    """(times, positions, velocities) of the servo's targets, linear between samples, held before
    the first and after the last (the schedule of examples/gripper_shake.toml)."""
    w = 2 * math.pi * FREQUENCY
    n = int(round(SHAKE_TIME / SAMPLE))
    ts = [T_SETTLE + k * SAMPLE for k in range(n + 1)]
    if not shake:
        return ts, [0.0] * len(ts), [0.0] * len(ts)
    x = [AMPLITUDE * (1 - math.cos(w * (t - T_SETTLE))) for t in ts]
    v = [AMPLITUDE * w * math.sin(w * (t - T_SETTLE)) for t in ts]
    # Rounded as the scene file writes them (7 decimals).
    return ts, [round(a, 7) for a in x], [round(a, 7) for a in v]


def arguments(doc):
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--hold", action="store_true",
                   help="no shaking: the creep of the held cylinder (examples/gripper_hold.toml)")
    p.add_argument("--grip", type=float, default=GRIP, help="grip force per finger, N (10)")
    p.add_argument("--duration", type=float, default=None,
                   help="simulated time, s (5.3 shaking; 2.0 holding)")
    p.add_argument("--runs", type=int, default=3, help="timed runs, best taken (3)")
    p.add_argument("--csv", default=None,
                   help="write the warm-up's slip every 10 ms from 0.3 s: t,dx,dy,dz,rotation (m, rad)")
    a = p.parse_args()
    if a.duration is None:
        a.duration = 2.0 if a.hold else T_SETTLE + SHAKE_TIME
    return a


def rotation_angle(R):
    """The angle (rad) of a 3x3 rotation matrix given as nested lists or an array."""
    c = (R[0][0] + R[1][1] + R[2][2] - 1.0) / 2.0
    return math.acos(max(-1.0, min(1.0, c)))


CREEP_WINDOW = (0.5, 2.0)  # the hold's creep speed: the slip's vertical change over this window


def write_slip_csv(path, record, k0, dt):
    """record: {step: (translation in the finger's frame, rotation matrix)}; the drift since step
    k0 at every recorded step from k0 on, as contactlab's measures.csv has it."""
    p0, R0 = record[k0]
    with open(path, "w") as f:
        f.write("t,dx,dy,dz,rotation\n")
        for k in sorted(record):
            if k >= k0:
                p, R = record[k]
                d = p - p0
                f.write(f"{k * dt:.3f},{d[0]:.6e},{d[1]:.6e},{d[2]:.6e},{rotation_angle(R0.T @ R):.6e}\n")
