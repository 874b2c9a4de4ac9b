"""From a scene's initial state, a fixed-step Simulation.run() is `contactlab simulate` bit for
bit (the same step functions): trajectory.csv's numbers are shortest round-trip decimals."""

import csv
import os
import subprocess
import tempfile

import numpy as np
import pytest

import contactlab
from cli import ROOT, contactlab_binary


def test_run_equals_the_simulate_command():
    binary = contactlab_binary()
    if binary is None:
        pytest.skip("the contactlab binary is not built (cargo test --profile release-test, or cargo build --release)")
    scene_path = os.path.join(ROOT, "examples", "box_drop.toml")
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([binary, "simulate", scene_path, "--out", out, "--quiet"], check=True, capture_output=True)
        with open(os.path.join(out, "trajectory.csv")) as f:
            rows = list(csv.reader(f))[1:]
    trajectory = contactlab.Simulation(contactlab.load_scene(scene_path)).run()
    names = trajectory["bodies"]
    expected = np.array([[float(x) for x in r[2:]] for r in rows]).reshape(len(trajectory["t"]), len(names), 13)
    times = np.array([float(r[0]) for r in rows[:: len(names)]])
    assert np.array_equal(times, trajectory["t"])
    assert [r[1] for r in rows[: len(names)]] == names
    assert np.array_equal(expected, trajectory["data"])
