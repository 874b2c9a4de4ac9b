"""MuJoCo beside contactlab on examples/pd_arm.toml: a 7-link arm under gravity held by PD servos,
no contact. Run with the anchors venv ($HOME/.cache/contactlab-anchors, ../shared/anchors/setup.sh).

The arm: joint axes z,y,z,y,z,y,z; each link's frame at its joint; joint origins 0.1 m (first)
then 0.2 m along the parent's z; link i (1-based) of mass 1.5 - 0.15 (i - 1) kg, centre of mass
0.1 m along its z, principal inertia [0.02, 0.02, 0.004] about it; a capsule (radius 0.03,
straight part 0.1 m, so size="0.03 0.05") centred 0.1 m along each link's z; range +-2.8
(limited), damping 0.1, armature 0.01; PD servos kp = 200, kv = 10 towards targets ramping
linearly from 0 at t = 0 to Q_END at t = 1 s, then held. gravity -9.81 z, timestep 1 ms,
integrator implicitfast, 2000 steps (2 s).

Collisions: left on as MuJoCo has them by default (contype = conaffinity = 1 on every geom, so
every pair goes through the broad phase each step), and MuJoCo's default parent/child filter
excludes adjacent links; the capsules are shorter than the links, so no pair touches (checked in
an untimed run: the largest number of contacts at any step is printed, it must be 0).

Timing protocol (the same as ../shared/anchors/mujoco_sim.py): best of three fresh runs (new
MjModel and MjData each), each run's steps made inside mj_step(m, d, nstep=...) calls, no Python
loop in the timed region; plus one untimed warm-up run first. One thread (mj_step uses one).

The ramp without a Python loop: mujoco_sim.py sets no controls and times no Python loop, so the
targets are not written into ctrl at every step. Instead each servo is the `<general>` actuator
that `<position kp="200" kv="10">` expands to (gain 200, affine bias [0, -200, -10]) with
dyntype="integrator": its activation is the target, integrated from ctrl. ctrl = Q_END / 1 s for
the first 1000 steps and 0 for the last 1000 (two mj_step(nstep=1000) calls, one write of ctrl
between them), so the activation at step n is exactly Q_END * n dt (n <= 1000), then Q_END: the
linear ramp sampled at the step times, as a per-step ctrl write would give it. For reference the
script also times the literal version (`<position kp="200" kv="10">` with ctrl set to the ramp in
a Python loop around mj_step(m, d)), printed on its own line, not used for the ratios.
"""
import sys, time
import numpy as np
import mujoco

Q_END = np.array([0.5, -0.6, 0.3, -1.2, 0.4, 0.8, -0.5])
AXES = ["0 0 1", "0 1 0"] * 3 + ["0 0 1"]
DT, STEPS, RAMP = 0.001, 2000, 1.0


def xml(integrator_servo: bool) -> str:
    body = ""
    for i in reversed(range(7)):
        pos = "0 0 0.1" if i == 0 else "0 0 0.2"
        mass = 1.5 - 0.15 * i
        body = (
            f'<body name="link{i+1}" pos="{pos}">'
            f'<joint name="joint{i+1}" type="hinge" axis="{AXES[i]}" limited="true" range="-2.8 2.8" damping="0.1" armature="0.01"/>'
            f'<inertial pos="0 0 0.1" mass="{mass:.2f}" diaginertia="0.02 0.02 0.004"/>'
            f'<geom type="capsule" size="0.03 0.05" pos="0 0 0.1"/>'
            f"{body}</body>"
        )
    if integrator_servo:
        acts = "".join(
            f'<general name="servo{i+1}" joint="joint{i+1}" dyntype="integrator" gaintype="fixed" gainprm="200"'
            f' biastype="affine" biasprm="0 -200 -10"/>'
            for i in range(7)
        )
    else:
        acts = "".join(f'<position name="servo{i+1}" joint="joint{i+1}" kp="200" kv="10"/>' for i in range(7))
    return (
        '<mujoco model="pd_arm"><compiler angle="radian"/>'
        f'<option timestep="{DT}" integrator="implicitfast" gravity="0 0 -9.81"/>'
        f"<worldbody>{body}</worldbody><actuator>{acts}</actuator></mujoco>"
    )


def run_integrator(m, d):
    """The 2 s run, ramp through the servos' activations (two mj_step calls)."""
    half = int(round(RAMP / DT))
    d.ctrl[:] = Q_END / RAMP
    mujoco.mj_step(m, d, nstep=half)
    d.ctrl[:] = 0.0
    mujoco.mj_step(m, d, nstep=STEPS - half)


def run_loop(m, d):
    """The literal version: the ramp written into ctrl before every mj_step."""
    for n in range(STEPS):
        d.ctrl[:] = Q_END * min(n * DT / RAMP, 1.0)
        mujoco.mj_step(m, d)


def best_of_three(integrator_servo, run):
    m = mujoco.MjModel.from_xml_string(xml(integrator_servo)); d = mujoco.MjData(m)
    run(m, d)  # warm-up, untimed
    best, q = float("inf"), None
    for _ in range(3):
        m = mujoco.MjModel.from_xml_string(xml(integrator_servo)); d = mujoco.MjData(m)
        t0 = time.perf_counter()
        run(m, d)
        best = min(best, time.perf_counter() - t0)
        q = d.qpos.copy()
    return best, q


def max_contacts(integrator_servo):
    m = mujoco.MjModel.from_xml_string(xml(integrator_servo)); d = mujoco.MjData(m)
    most = 0
    for n in range(STEPS):
        if integrator_servo:
            d.ctrl[:] = Q_END / RAMP if n < RAMP / DT else 0.0
        else:
            d.ctrl[:] = Q_END * min(n * DT / RAMP, 1.0)
        mujoco.mj_step(m, d)
        most = max(most, d.ncon)
    return most


fmt = lambda q: "[" + ", ".join(f"{x:.5f}" for x in q) + "]"
print(f"mujoco {mujoco.__version__}, integrator implicitfast, dt {DT}, {STEPS} steps; "
      f"max contacts at any step: {max_contacts(True)} (integrator servos), {max_contacts(False)} (position servos)")
wall, q = best_of_three(True, run_integrator)
print(f"mujoco_arm nstep       steps={STEPS} wall_s={wall:.5f} steps_per_s={STEPS / wall:.0f} q_final={fmt(q)}")
wall, q = best_of_three(False, run_loop)
print(f"mujoco_arm python_loop steps={STEPS} wall_s={wall:.5f} steps_per_s={STEPS / wall:.0f} q_final={fmt(q)}")
print(f"targets                q_end={fmt(Q_END)}")
