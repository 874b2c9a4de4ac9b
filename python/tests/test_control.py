"""A control loop: a force-driven pad, PD-controlled on the measured contact force, holds a grip
force on the ground; applied loads' work enters the energy balance."""

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
