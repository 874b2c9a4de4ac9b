"""Errors as Python exceptions with the command line's messages: ValueError for bad scenes and
arguments, contactlab.SimulationError for runs that stop."""

import os
import subprocess
import tempfile

import pytest

import contactlab
from cli import contactlab_binary
from scenes import HERTZ_BALL_ON_BOX, PAD, SPHERE_ON_GROUND

BAD_KEY = '[[body]]\nname = "a"\nmass = 1\nshap = { type = "sphere", radius = 1 }\n'


def test_a_bad_scene_is_a_value_error_with_the_cli_message():
    with pytest.raises(ValueError) as python:
        contactlab.Scene.from_toml(BAD_KEY)
    assert "unknown field `shap`" in str(python.value) and "line 4, column 1" in str(python.value)
    binary = contactlab_binary()
    if binary is None:
        pytest.skip("the contactlab binary is not built (cargo test --profile release-test, or cargo build --release)")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "bad.toml")
        with open(path, "w") as f:
            f.write(BAD_KEY)
        cli = subprocess.run([binary, "contact", path], capture_output=True, text=True)
        with pytest.raises(ValueError) as loaded:
            contactlab.load_scene(path)
    assert cli.returncode != 0
    assert cli.stderr.strip() == f"error: {loaded.value}"
    assert str(loaded.value) == f"cannot load scene {path}: {python.value}"


def test_missing_files_and_bad_values():
    with pytest.raises(ValueError, match="no_such_scene.toml"):
        contactlab.load_scene("no_such_scene.toml")
    bad = dict(HERTZ_BALL_ON_BOX, body=[dict(b) for b in HERTZ_BALL_ON_BOX["body"]])
    bad["body"][1]["mass"] = -1.0
    with pytest.raises(ValueError, match="mass"):
        contactlab.Scene.from_dict(bad)
    with pytest.raises(TypeError, match="no TOML form"):
        contactlab.Scene.from_dict({"body": [{"name": object()}]})


def test_a_run_that_breaks_the_energy_balance_raises_simulation_error():
    # A stiff light ball under the explicit-elastic scheme at a large step gains energy.
    text = SPHERE_ON_GROUND.replace("[sim]", '[sim]\nintegrator = "semi_implicit_euler"\ndt = 0.01')
    text = text.replace("hydroelastic_modulus = 1e5", "hydroelastic_modulus = 1e8").replace("mass = 1.0", "mass = 0.01")
    sim = contactlab.Simulation(contactlab.Scene.from_toml(text))
    with pytest.raises(contactlab.SimulationError, match="the energy balance broke at t = .* s.*smaller dt"):
        sim.step(100)
    assert issubclass(contactlab.SimulationError, Exception)
    assert not issubclass(contactlab.SimulationError, ValueError)


def test_bad_arguments_are_value_errors():
    sim = contactlab.Simulation(contactlab.Scene.from_toml(PAD))
    with pytest.raises(ValueError, match="`ground` is fixed"):
        sim.apply("ground", force=[0.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="no body is named `hand`; the bodies are: pad, ground"):
        sim.apply("hand", force=[0.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="not finite"):
        sim.apply("pad", force=[float("nan"), 0.0, 0.0])
    with pytest.raises(ValueError, match=r"shape \(1, 3\)"):
        sim.set_state(positions=[[0.0, 0.0, 0.0]])
    other = contactlab.Simulation(contactlab.Scene.from_dict(HERTZ_BALL_ON_BOX))
    with pytest.raises(ValueError, match="another scene"):
        sim.set_state(other.state)
    radau = PAD.replace("[sim]", '[sim]\nintegrator = "radau5"')
    with pytest.raises(ValueError, match="radau5"):
        contactlab.Simulation(contactlab.Scene.from_toml(radau))
    with pytest.raises(ValueError, match="integrator `leapfrog` is unknown"):
        contactlab.Simulation(contactlab.Scene.from_toml(PAD.replace("[sim]", '[sim]\nintegrator = "leapfrog"')))
