"""sim.state carries everything a step depends on: set_state then stepping is the run that was
not interrupted, bit for bit (pressure field + implicit Euler, Hertz + dopri5, volume6d)."""

import numpy as np
import pytest

import contactlab
from scenes import HERTZ_BALL_ON_BOX, SPHERE_ON_GROUND, VOLUME6D_SLIDING_BOX


def bits(state):
    return state.vector.view(np.uint64)


SCENES = {
    "pressure_field/implicit_euler": (lambda: contactlab.Scene.from_toml(SPHERE_ON_GROUND), 20, 30),
    "hertz/dopri5": (lambda: contactlab.Scene.from_dict(HERTZ_BALL_ON_BOX), 40, 60),
    "volume6d/time_stepping": (lambda: contactlab.Scene.from_toml(VOLUME6D_SLIDING_BOX), 20, 30),
}


@pytest.mark.parametrize("name", list(SCENES))
def test_set_state_then_stepping_equals_the_uninterrupted_run(name):
    make, before, after = SCENES[name]
    scene = make()
    sim = contactlab.Simulation(scene)
    assert sim.integrator == name.split("/")[1]
    sim.step(before)
    saved = sim.state
    sim.step(after)
    reference = sim.state
    energies = sim.energies()
    contacts = sim.contacts()

    # Back in the same simulation …
    sim.set_state(saved)
    assert sim.time == saved.time
    sim.step(after)
    assert np.array_equal(bits(sim.state), bits(reference))
    assert sim.time == reference.time
    assert sim.energies() == energies
    assert [np.array_equal(a["force"], b["force"]) for a, b in zip(sim.contacts(), contacts)] == [True] * len(
        contacts
    )

    # … and in another one of the same scene (the contact model's memory travels too).
    other = contactlab.Simulation(scene)
    other.set_state(saved)
    other.step(after)
    assert np.array_equal(bits(other.state), bits(reference))


def test_the_memory_matters():
    """Setting only the motion (poses and twists) starts the integrator's memory afresh: the run
    then differs in the last bits, which is what the round trip above must not do."""
    sim = contactlab.Simulation(contactlab.Scene.from_dict(HERTZ_BALL_ON_BOX))
    sim.step(40)
    saved = sim.state
    sim.step(60)
    reference = sim.state
    sim.set_state(saved)
    sim.set_state(
        positions=saved.positions,
        quaternions=saved.quaternions,
        velocities=saved.velocities,
        angular_velocities=saved.angular_velocities,
    )
    sim.step(60)
    assert not np.array_equal(bits(sim.state), bits(reference))
    assert np.allclose(sim.state.positions, reference.positions, atol=1e-6)


def test_state_arrays():
    sim = contactlab.Simulation(contactlab.Scene.from_toml(SPHERE_ON_GROUND))
    state = sim.state
    assert state.body_names == ["ball", "ground"]
    assert state.positions.shape == (2, 3) and state.quaternions.shape == (2, 4)
    assert state.velocities.shape == (2, 3) and state.angular_velocities.shape == (2, 3)
    assert np.allclose(state.positions[0], [0, 0, 0.09]) and np.allclose(state.quaternions[0], [1, 0, 0, 0])
    assert state.control.shape == (2, 6) and state.time == 0.0
    assert state.vector.shape == (13 + 2,)


def test_set_motion_moves_the_bodies():
    sim = contactlab.Simulation(contactlab.Scene.from_toml(SPHERE_ON_GROUND))
    positions = sim.state.positions
    positions[0, 2] = 0.5
    sim.set_state(positions=positions, velocities=np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]))
    state = sim.state
    assert state.positions[0, 2] == 0.5 and state.velocities[0, 2] == 1.0
    assert sim.contacts() == []
    sim.step(10)
    # Free flight: z = 0.5 + 1·t − g·t²/2.
    t = sim.time
    assert sim.state.positions[0, 2] == pytest.approx(0.5 + t - 9.81 * t * t / 2, abs=1e-4)


def test_run_rows_are_the_steps():
    """run() returns trajectory.csv's columns at output times; its rows are the states that
    stepping gives."""
    scene = contactlab.Scene.from_toml(SPHERE_ON_GROUND)
    sim = contactlab.Simulation(scene)
    trajectory = sim.run(0.01, output_dt=0.005)
    assert trajectory["columns"][:3] == ["x", "y", "z"] and trajectory["bodies"] == ["ball", "ground"]
    assert np.array_equal(trajectory["t"], [0.0, 0.005, 0.01])
    assert trajectory["data"].shape == (3, 2, 13)
    stepped = contactlab.Simulation(scene)
    stepped.step(10)
    last = trajectory["data"][-1]
    assert np.array_equal(last[:, 0:3], stepped.state.positions)
    assert np.array_equal(last[:, 7:10], stepped.state.velocities)
