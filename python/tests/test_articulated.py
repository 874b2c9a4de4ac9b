"""Mechanisms from Python: joint coordinates read and set, actuator commands, the mass matrix, bias
and gravity forces and inverse dynamics against a planar two-link arm's closed form, Jacobians
and forward kinematics against the trajectory, and saved states with joints."""

import numpy as np
import pytest

import contactlab
from scenes import SPHERE_ON_GROUND

# A planar two-link arm turning about z in the x–y plane, gravity along −y: link 1 (mass m1,
# centre r1 along its x, inertia I1 about z at the centre), link 2 hinged l1 along link 1's x
# (src/dynamics/coordinates/articulation/tests.rs has the same arm).
M1, M2, R1, R2, L1, I1, I2, G = 1.3, 0.7, 0.25, 0.18, 0.5, 0.03, 0.011, 9.81
# The pressure field needs a compliant body in every pair that may touch (none does here).
COMPLIANT = '{ compliance = "compliant", hydroelastic_modulus = 1e7, resolution = 0.02 }'


def arm(q=(0.3, -1.1), v=(0.0, 0.0), joint="", extra="", gravity=G, dt=1e-3):
    """The arm as a Scene: `joint` is added to both joints' tables, `extra` at the end."""
    return contactlab.Scene.from_toml(f"""
[sim]
duration = 1.0
gravity = [0.0, {-gravity}, 0.0]
integrator = "semi_implicit_euler"
dt = {dt}

[[body]]
name = "upper"
mass = {M1}
center_of_mass = [{R1}, 0.0, 0.0]
inertia = [0.02, 0.02, {I1}]
shape = {{ type = "sphere", radius = 0.05, position = [{R1}, 0.0, 0.0] }}
contact = {COMPLIANT}

[[body]]
name = "fore"
mass = {M2}
center_of_mass = [{R2}, 0.0, 0.0]
inertia = [0.006, 0.006, {I2}]
shape = {{ type = "sphere", radius = 0.05, position = [{R2}, 0.0, 0.0] }}
contact = {COMPLIANT}

[[joint]]
name = "shoulder"
type = "revolute"
parent = "world"
child = "upper"
axis = [0.0, 0.0, 1.0]
position = {q[0]}
velocity = {v[0]}
{joint}

[[joint]]
name = "elbow"
type = "revolute"
parent = "upper"
child = "fore"
origin = {{ position = [{L1}, 0.0, 0.0] }}
axis = [0.0, 0.0, 1.0]
position = {q[1]}
velocity = {v[1]}
{joint}

[[exclude]]
a = "upper"
b = "fore"
{extra}
""")


SERVO_AND_MOTOR = """
[[actuator]]
name = "servo"
joint = "shoulder"
kind = "position"
kp = 20.0
kd = 2.0
target = 0.3

[[actuator]]
name = "motor"
joint = "elbow"
kind = "motor"
gear = 2.0
"""


def closed_form(q):
    """The arm's mass matrix and gravity torques at q."""
    c2 = np.cos(q[1])
    m11 = I1 + I2 + M1 * R1**2 + M2 * (L1**2 + R2**2 + 2 * L1 * R2 * c2)
    m12 = I2 + M2 * (R2**2 + L1 * R2 * c2)
    m22 = I2 + M2 * R2**2
    g2 = M2 * R2 * G * np.cos(q[0] + q[1])
    g1 = (M1 * R1 + M2 * L1) * G * np.cos(q[0]) + g2
    return np.array([[m11, m12], [m12, m22]]), np.array([g1, g2])


def close(a, b, tol=1e-12):
    return np.allclose(a, b, rtol=tol, atol=tol)


def test_joint_names_and_coordinates():
    sim = contactlab.Simulation(arm(v=(0.5, -0.2)))
    assert sim.joint_names() == ["shoulder", "elbow"]
    assert sim.joints() == {"shoulder": (0.3, 0.5), "elbow": (-1.1, -0.2)}
    assert np.array_equal(sim.q, [0.3, -1.1])
    assert np.array_equal(sim.v, [0.5, -0.2])


def test_the_mass_matrix_and_gravity_forces_have_the_closed_form():
    q = (0.3, -1.1)
    sim = contactlab.Simulation(arm(q))
    mass, gravity = closed_form(q)
    m = sim.mass_matrix()
    assert m.shape == (2, 2)
    assert np.array_equal(m, m.T)
    assert np.all(np.linalg.eigvalsh(m) > 0)
    assert close(m, mass)
    assert close(sim.gravity_forces(), gravity)
    # At rest the bias forces are gravity's, and so is inverse dynamics at zero acceleration.
    assert close(sim.bias_forces(), gravity)
    assert close(sim.inverse_dynamics(np.zeros(2)), sim.gravity_forces())
    # Linear in the acceleration: M·a added.
    a = np.array([1.5, -2.0])
    assert close(sim.inverse_dynamics(a), m @ a + gravity)


def test_armature_enters_the_mass_matrix_and_inverse_dynamics():
    plain = contactlab.Simulation(arm())
    geared = contactlab.Simulation(arm(joint="armature = 0.05"))
    assert close(geared.mass_matrix() - plain.mass_matrix(), np.diag([0.05, 0.05]))
    a = np.array([1.0, 2.0])
    assert close(geared.inverse_dynamics(a) - plain.inverse_dynamics(a), 0.05 * a)


def test_inverse_dynamics_of_a_step_is_the_applied_torque():
    # No actuator, spring or damping: the joint torque that gives a step's acceleration is zero.
    dt = 1e-6
    sim = contactlab.Simulation(arm(v=(0.8, -1.5), dt=dt))
    v0, bias = sim.v, sim.bias_forces()
    assert not close(bias, sim.gravity_forces(), 1e-3), "moving: Coriolis and centrifugal terms"
    start = sim.state
    sim.step()
    a = (sim.v - v0) / dt
    sim.set_state(start)
    tau = sim.inverse_dynamics(a)
    assert np.max(np.abs(tau)) <= 1e-8 * np.max(np.abs(bias)), (tau, bias)


def test_the_jacobian_gives_the_link_velocities():
    sim = contactlab.Simulation(arm(q=(0.7, 0.4), v=(0.9, -1.3)))
    state = sim.state
    fore = sim.body("fore")
    j = sim.jacobian("fore")
    assert j.shape == (6, 2)
    assert close((j @ sim.v)[:3], state.velocities[fore])
    assert close((j @ sim.v)[3:], state.angular_velocities[fore])
    # A point of the link: the velocity of its centre of mass, v + ω × (c − origin).
    pose = sim.forward_kinematics()["fore"]
    centre = pose[:3, :3] @ [R2, 0.0, 0.0] + pose[:3, 3]
    omega = state.angular_velocities[fore]
    expected = state.velocities[fore] + np.cross(omega, centre - pose[:3, 3])
    assert close((sim.jacobian(fore, centre) @ sim.v)[:3], expected)
    # The upper arm does not move with the elbow.
    assert np.array_equal(sim.jacobian("upper")[:, 1], np.zeros(6))


def test_forward_kinematics_gives_every_link_pose():
    q = (0.7, 0.4)
    sim = contactlab.Simulation(arm(q=q))
    poses = sim.forward_kinematics()
    assert sorted(poses) == ["fore", "upper"]
    fore = poses["fore"]
    assert fore.shape == (4, 4)
    assert close(fore[:3, 3], [L1 * np.cos(q[0]), L1 * np.sin(q[0]), 0.0])
    turn = q[0] + q[1]
    assert close(fore[:3, :3], [[np.cos(turn), -np.sin(turn), 0], [np.sin(turn), np.cos(turn), 0], [0, 0, 1]])
    assert close(fore[3], [0, 0, 0, 1])
    state = sim.state
    assert close(fore[:3, 3], state.positions[sim.body("fore")])


def test_set_target_moves_a_servo_towards_it():
    sim = contactlab.Simulation(arm(extra=SERVO_AND_MOTOR, gravity=0.0))
    sim.step(10)
    assert abs(sim.q[0] - 0.3) < 1e-9, "held at the scene's target"
    sim.set_target("servo", 0.8)
    sim.step(2000)
    assert abs(sim.q[0] - 0.8) < 0.02, sim.q
    with pytest.raises(ValueError, match="set_effort"):
        sim.set_target("motor", 1.0)
    with pytest.raises(ValueError, match="set_target"):
        sim.set_effort("servo", 1.0)
    with pytest.raises(ValueError, match="no actuator is named `nope`"):
        sim.set_target("nope", 1.0)


def test_set_effort_drives_a_motor():
    sim = contactlab.Simulation(arm(extra=SERVO_AND_MOTOR, gravity=0.0))
    sim.set_effort("motor", 0.5)
    sim.step(100)
    assert sim.v[1] > 0.1, sim.v


def test_q_and_v_round_trip():
    sim = contactlab.Simulation(arm())
    sim.q = [0.1, 0.2]
    assert np.array_equal(sim.q, [0.1, 0.2])
    assert np.array_equal(sim.v, [0.0, 0.0])
    sim.v = np.array([-0.3, 0.4])
    assert np.array_equal(sim.v, [-0.3, 0.4])
    assert np.array_equal(sim.q, [0.1, 0.2])
    # The bodies moved with them.
    fore = sim.forward_kinematics()["fore"]
    assert close(sim.state.positions[sim.body("fore")], fore[:3, 3])
    assert close(fore[:3, 3], [L1 * np.cos(0.1), L1 * np.sin(0.1), 0.0])
    # The run goes on from there, as from a scene that starts there.
    sim.step(50)
    fresh = contactlab.Simulation(arm(q=(0.1, 0.2), v=(-0.3, 0.4)))
    fresh.step(50)
    assert close(sim.q, fresh.q) and close(sim.v, fresh.v)
    with pytest.raises(ValueError, match="give 2"):
        sim.q = [0.1, 0.2, 0.3]
    with pytest.raises(ValueError, match="give 2"):
        sim.v = [0.1]


def test_state_and_set_state_carry_the_joints_and_actuator_commands():
    sim = contactlab.Simulation(arm(extra=SERVO_AND_MOTOR, v=(0.2, 0.1)))
    sim.step(20)
    saved = sim.state
    q, v = sim.q, sim.v
    sim.step(30)
    reference = (sim.q, sim.v, sim.state.vector)
    # A command given after the save is undone by putting the state back.
    sim.set_state(saved)
    assert np.array_equal(sim.q, q) and np.array_equal(sim.v, v)
    sim.set_target("servo", 1.0)
    sim.set_effort("motor", 3.0)
    sim.set_state(saved)
    sim.step(30)
    assert np.array_equal(sim.q, reference[0]) and np.array_equal(sim.v, reference[1])
    assert np.array_equal(sim.state.vector, reference[2])
    # And a command given before the save travels with it.
    sim.set_target("servo", 1.0)
    with_command = sim.state
    sim.step(30)
    after = sim.q
    other = contactlab.Simulation(arm(extra=SERVO_AND_MOTOR, v=(0.2, 0.1)))
    other.set_state(with_command)
    other.step(30)
    assert np.array_equal(other.q, after)


def test_scenes_without_joints_say_so():
    sim = contactlab.Simulation(contactlab.Scene.from_toml(SPHERE_ON_GROUND))
    for call in (
        sim.joint_names,
        sim.joints,
        sim.mass_matrix,
        sim.bias_forces,
        sim.gravity_forces,
        sim.forward_kinematics,
        lambda: sim.q,
        lambda: sim.inverse_dynamics([]),
        lambda: sim.jacobian("ball"),
        lambda: sim.set_target("servo", 1.0),
    ):
        with pytest.raises(ValueError, match=r"the scene has no joints.*\[\[joint\]\]"):
            call()
    with pytest.raises(ValueError, match="no joints"):
        sim.q = [0.0]


def test_a_body_that_is_not_a_link_is_refused():
    ball = f"""
[[body]]
name = "ball"
mass = 1.0
position = [2.0, 0.0, 0.0]
shape = {{ type = "sphere", radius = 0.1 }}
contact = {COMPLIANT}
"""
    sim = contactlab.Simulation(arm(extra=ball))
    with pytest.raises(ValueError, match="`ball` is not a link"):
        sim.jacobian("ball")
    assert sorted(sim.forward_kinematics()) == ["fore", "upper"]


def test_a_robot_file_gives_joints_and_a_mass_matrix():
    """dm_control's pendulum.xml through [[robot]]: its hinge, and M = I + m·l² of the file's pole."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2]
    scene = contactlab.Scene.from_toml(f"""
[sim]
duration = 0.1

[[robot]]
name = "r"
file = "{root / 'robots/dm_control/suite/pendulum.xml'}"
positions = {{ hinge = 0.4 }}
""")
    sim = contactlab.Simulation(scene)
    assert sim.joint_names() == ["r/hinge"]
    assert sim.q[0] == pytest.approx(0.4)
    # The pole: a 1 kg ball 0.5 m from the hinge (its capsule and cylinder have mass 0), its
    # inertia about its centre 0.001 kg·m² (2/5·m·r², r = 0.05).
    assert sim.mass_matrix()[0, 0] == pytest.approx(0.001 + 0.25, rel=1e-9)
