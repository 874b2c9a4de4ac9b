"""Control loops: a force-driven pad and a kinematic (position-controlled) pad, PD-controlled on
the measured contact force, hold a grip force on the ground; applied loads' work enters the
energy balance."""

import numpy as np
import pytest

import contactlab
from scenes import PAD


def test_a_pd_controlled_pad_holds_its_grip_force():
    sim = contactlab.Simulation(contactlab.Scene.from_toml(PAD))
    pad = sim.body("pad")
    target, kp, kd = 5.0, 1.0, 2.0
    forces = []
    for _ in range(300):
        contacts = sim.contacts()
        measured = contacts[0]["force"][2] if contacts else 0.0
        v = sim.state.velocities[pad, 2]
        # Feed-forward of the target, P on the force error, D on the pad's speed.
        push = -(target + kp * (target - measured)) - kd * v
        sim.apply("pad", force=[0.0, 0.0, push])
        sim.step()
        forces.append(measured)
    assert forces[0] == 0.0, "the pad starts above the ground"
    held = np.array(forces[-100:])
    assert abs(held.mean() - target) < 5e-3 * target
    assert np.abs(held - target).max() < 2e-2 * target
    assert sim.state.control[pad, 2] == pytest.approx(-target, rel=2e-2)
    # The controller did work on the pad; the implicit step only loses energy.
    e = sim.energies()
    assert e["work"] > 0
    assert e["total"] - e["work"] <= 1e-12
    # Without the control input the pad floats off: the force goes.
    sim.apply("pad", force=[0.0, 0.0, 0.0])
    sim.step(200)
    assert sim.contacts() == []


@pytest.mark.parametrize(
    "integrator, rel", [("implicit_euler", 1e-12), ("semi_implicit_euler", 1e-12), ("dopri5", 1e-6)]
)
def test_the_work_of_a_control_force_is_force_times_displacement(integrator, rel):
    text = PAD.replace("[sim]", f'[sim]\nintegrator = "{integrator}"')
    sim = contactlab.Simulation(contactlab.Scene.from_toml(text))
    start = sim.state.positions[0].copy()
    force = np.array([0.3, -0.1, 2.0])
    sim.apply("pad", force=force)
    # Long enough that booking the work at the steps' start velocities (dt²·F²/m short a step)
    # would break the energy balance.
    while sim.time < 0.5:
        sim.step()
    moved = sim.state.positions[0] - start
    e = sim.energies()
    assert e["work"] == pytest.approx(force @ moved, rel=rel)
    # Free flight from rest under a constant force: ½·m·v² = F·Δx up to the step's O(1/n).
    assert e["kinetic"] == pytest.approx(e["work"], rel=1e-2)
    assert e["total"] - e["work"] <= 1e-9 * e["work"]


KINEMATIC_PAD = """
[model]
kind = "pressure_field"

[sim]
gravity = [0.0, 0.0, 0.0]

[[body]]
name = "pad"
position = [0.0, 0.0, 0.011]
shape = { type = "box", size = [0.04, 0.04, 0.02] }
contact = { compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.01, dissipation = 1.0, friction = 0.5 }
kinematic = { linear_velocity = [0.0, 0.0, 0.0] }

[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
contact = { compliance = "rigid" }
"""


def test_a_pd_controlled_kinematic_pad_holds_its_grip_force():
    """A position-controlled pad, 1 mm above the ground, is driven down and held at 5 N by a PD
    law on the measured contact force (its velocity is the command)."""
    sim = contactlab.Simulation(contactlab.Scene.from_toml(KINEMATIC_PAD))
    target, kp, kd = 5.0, 2e-3, 1e-6  # m/s per N, m per N
    forces, last_error = [], None
    for _ in range(400):
        contacts = sim.contacts()
        measured = contacts[0]["force"][2] if contacts else 0.0
        error = measured - target  # too little force: move down
        rate = 0.0 if last_error is None else (error - last_error) / 1e-3
        sim.drive("pad", linear=[0.0, 0.0, kp * error + kd * rate])
        last_error = error
        sim.step()
        forces.append(measured)
    assert forces[0] == 0.0, "the pad starts above the ground"
    held = np.array(forces[-100:])
    assert abs(held.mean() - target) < 1e-3 * target
    assert np.abs(held - target).max() < 1e-2 * target
    # The pad went down by the depth that gives 5 N and stays there.
    z = sim.state.positions[sim.body("pad"), 2]
    assert 0.0099 < z < 0.01
    # The driven motion is part of the state: saved, changed and put back, the run goes on
    # bit for bit as it would have.
    sim.drive("pad", linear=[0.0, 0.0, -1e-4])
    saved = sim.state
    sim.step(10)
    straight_on = sim.state.positions.copy()
    sim.set_state(saved)
    sim.drive("pad", linear=[0.0, 0.0, 0.01])
    sim.step(5)
    sim.set_state(saved)
    sim.step(10)
    assert np.array_equal(sim.state.positions, straight_on)
    with pytest.raises(ValueError, match="not kinematic"):
        sim.drive("ground", linear=[0.0, 0.0, 1.0])
