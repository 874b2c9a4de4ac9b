"""MuJoCo beside contactlab on Drake's gripper benchmark (examples/gripper_shake.toml, and with
--hold examples/gripper_hold.toml): a 1.089 kg two-finger gripper holds a 94 g cylinder with
10 N per finger, mu = 1, shaken vertically at 2 Hz with 0.15 m amplitude for 5 s after 0.3 s of
settling. Run with the anchors venv ($HOME/.cache/contactlab-anchors, ../shared/anchors/setup.sh);
scripts/bench_gripper.sh runs it. The numbers are in scripts/gripper_common.py.

The model (MJCF built below): the gripper body (0.988882 kg, diaginertia 0.162992 0.162992
0.164814, no geom) on a vertical slide joint; two fingers (50 g box geoms 0.028 x 0.008 x 0.028,
half sizes in MJCF) on slide joints of the gripper along +/-y at y = -/+0.044 (their faces touch
the cylinder at q = 0), range [-0.01, 0.01]; a free cylinder (94 g, r = 0.04, half length 0.05).
Friction 1 on every geom (MuJoCo takes the larger of two geoms' coefficients), condim 3,
elliptic cones, integrator implicitfast, dt 1 ms, MuJoCo's default solref/solimp (soft contact).
`multiccd` is on, so the box-cylinder pairs give several contact points along the line of
contact (else one point per pad, which leaves the cylinder free to turn about the grip axis).
The grip: a `<motor>` on each finger, ctrl = 10 N (--grip), constant.

The shaking without a Python call per step: the servo on the vertical joint is a `<general>`
actuator with dyntype "integrator" (its activation is the target position, integrated from its
ctrl: gain 1e5, bias [0, -1e5, -700]) plus a `<general>` of gain 700 and no bias whose ctrl is the
target velocity. Over each 10 ms interval between the scene's samples, both ctrls are the chord's
slope (x_{k+1} - x_k) / 10 ms, set once, then mj_step(m, d, nstep=10): the activation is the
piecewise-linear target through the same samples as the scene's targets (exactly, at the step
times), the velocity target the chord's slope (the scene interpolates the sampled analytic
velocity instead: a difference of order the chord error, 0.3 mm/s... of the 1.9 m/s peak).
So the force is kp (target - q) + kd (target velocity - v), as contactlab's and Drake's servos.

Timing (the protocol of ../shared/anchors/mujoco_sim.py and scripts/mujoco_arm.py): an untimed
warm-up run that also records the slip (the cylinder's pose in the left finger's frame every
10 ms), then best of --runs fresh runs (new MjModel and MjData each), the steps inside
mj_step(m, d, nstep=10) calls. One thread.
Prints one line: steps, best wall time, real-time factor, the slip from 0.3 s to the end
(translation of the cylinder in the left finger's frame, norm and z part, and rotation angle),
the largest number of contacts; with --hold the creep speed over 0.5-2 s.
"""
import sys, os, time
import numpy as np
import mujoco
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gripper_common as G

args = G.arguments(__doc__)
px, py, pz = (s / 2 for s in G.PAD_SIZE)


def xml():
    fingers = "".join(
        f'<body name="{n}_finger" pos="0 {y} 0">'
        f'<joint name="{n}_slide" type="slide" axis="0 {a} 0" limited="true" range="-0.01 0.01"/>'
        f'<geom type="box" size="{px} {py} {pz}" mass="{G.FINGER_MASS}"/></body>'
        for n, y, a in (("left", -G.FINGER_Y, 1), ("right", G.FINGER_Y, -1)))
    ix, iy, iz = G.GRIPPER_INERTIA
    return (
        '<mujoco model="gripper_shake">'
        f'<option timestep="{G.DT}" integrator="implicitfast" cone="elliptic" gravity="0 0 {G.GRAVITY}">'
        '<flag multiccd="enable"/></option>'
        f'<default><geom friction="{G.MU} 0.005 0.0001" condim="3"/></default>'
        '<worldbody>'
        '<body name="gripper"><joint name="shake" type="slide" axis="0 0 1"/>'
        f'<inertial pos="0 0 0" mass="{G.GRIPPER_MASS}" diaginertia="{ix} {iy} {iz}"/>{fingers}</body>'
        f'<body name="cylinder"><freejoint/><geom type="cylinder" size="{G.CYL_RADIUS} {G.CYL_LENGTH / 2}" '
        f'mass="{G.CYL_MASS}"/></body>'
        '</worldbody><actuator>'
        '<motor name="left_grip" joint="left_slide" gear="1"/><motor name="right_grip" joint="right_slide" gear="1"/>'
        f'<general name="shaker" joint="shake" dyntype="integrator" gaintype="fixed" gainprm="{G.KP}" '
        f'biastype="affine" biasprm="0 {-G.KP} {-G.KD}"/>'
        f'<general name="shaker_velocity" joint="shake" gaintype="fixed" gainprm="{G.KD}"/>'
        '</actuator></mujoco>')


ts, xs, _ = G.shake_samples(shake=not args.hold)
steps = int(round(args.duration / G.DT))
chunk = int(round(G.SAMPLE / G.DT))


def slopes():
    """The ctrl of each 10 ms chunk of steps: the target chord's slope (0 before the first sample
    and after the last)."""
    out = []
    for k in range(0, steps, chunk):
        t = k * G.DT
        j = int(round((t - ts[0]) / G.SAMPLE))
        out.append((xs[j + 1] - xs[j]) / G.SAMPLE if 0 <= j < len(ts) - 1 else 0.0)
    return out


SLOPES = slopes()


def fresh():
    m = mujoco.MjModel.from_xml_string(xml()); d = mujoco.MjData(m)
    d.ctrl[0] = d.ctrl[1] = args.grip
    return m, d


def run(m, d, record=None):
    most = 0
    for c, s in enumerate(SLOPES):
        d.ctrl[2] = d.ctrl[3] = s
        mujoco.mj_step(m, d, nstep=min(chunk, steps - c * chunk))
        if record is not None:
            record[(c + 1) * chunk] = relative(m, d)
            most = max(most, d.ncon)
    return most


def relative(m, d):
    f, c = m.body("left_finger").id, m.body("cylinder").id
    Rf, Rc = d.xmat[f].reshape(3, 3), d.xmat[c].reshape(3, 3)
    return Rf.T @ (d.xpos[c] - d.xpos[f]), Rf.T @ Rc


m, d = fresh()
record = {0: relative(m, d)}
most = run(m, d, record)
k0 = int(round(G.T_SETTLE / G.DT))
(p0, R0), (p1, R1) = record[k0], record[steps]
slip, rot = p1 - p0, G.rotation_angle(R0.T @ R1)
if args.csv:
    G.write_slip_csv(args.csv, record, k0, G.DT)
best = float("inf")
for _ in range(args.runs):
    m, d = fresh()
    t0 = time.perf_counter()
    run(m, d)
    best = min(best, time.perf_counter() - t0)
print(f"mujoco {mujoco.__version__}, implicitfast, elliptic cones, dt {G.DT}, {steps} steps, grip {args.grip} N, "
      f"{'hold' if args.hold else 'shake'}; most contacts at any 10 ms sample: {most}; "
      f"gripper z at the end {d.qpos[0]:.5f} (target {xs[-1] if args.duration >= ts[-1] else float('nan'):.5f})")
line = (f"mujoco_gripper implicitfast steps={steps} wall_s={best:.4f} realtime_factor={args.duration / best:.3f} "
        f"slip_m={np.linalg.norm(slip):.3e} slip_z={slip[2]:.3e} slip_rot_deg={np.degrees(rot):.3e}")
if args.hold:
    a, b = (int(round(t / G.DT)) for t in G.CREEP_WINDOW)
    line += f" creep_um_s={(record[b][0][2] - record[a][0][2]) / (G.CREEP_WINDOW[1] - G.CREEP_WINDOW[0]) * 1e6:.4g}"
print(line)
