"""contactlab.sweep: local and Ray backends against a closed form and against each other."""

import math

import pytest

import contactlab
from scenes import FREE_FALL


GRID = {"body.ball.position.2": [1.0, 2.0], "sim.dt": [1e-3, 5e-4]}


def rows_of(result):
    """The rows as a list of dicts, whether pandas is installed or not."""
    if hasattr(result, "to_dict"):
        return result.to_dict("records")
    return result


@pytest.fixture
def scene_file(tmp_path):
    path = tmp_path / "fall.toml"
    path.write_text(FREE_FALL)
    return path


def test_local_sweep_falls_as_backward_euler_says(scene_file, tmp_path):
    rows = rows_of(contactlab.sweep(scene_file, GRID, out=tmp_path / "out", jobs=2, progress=False))
    assert [r["run"] for r in rows] == [0, 1, 2, 3]
    for r in rows:
        z0, dt = r["body.ball.position.2"], r["sim.dt"]
        n = round(0.1 / dt)
        z = z0 - 9.81 * dt * dt * n * (n + 1) / 2  # backward Euler's free fall
        assert r["status"] == "ok", r["message"]
        assert math.isclose(r["ball.z"], z, abs_tol=1e-9)
        assert r["max_contact_force"] == 0.0
        assert r["max_penetration"] is None
    assert (tmp_path / "out" / "summary.csv").read_text().startswith("run,body.ball.position.2,sim.dt,status")


def test_a_failed_run_is_a_row_and_bad_keys_raise(scene_file):
    rows = rows_of(contactlab.sweep(scene_file, {"sim.dt": [1e-3, -1.0]}, progress=False))
    assert [r["status"] for r in rows] == ["ok", "failed"]
    assert "dt" in rows[1]["message"]
    with pytest.raises(ValueError, match="no body named `bal`"):
        contactlab.sweep(scene_file, {"body.bal.mass": [1.0]}, progress=False)
    with pytest.raises(ValueError, match="backend"):
        contactlab.sweep(scene_file, GRID, backend="cloud", progress=False)


def test_latin_hypercube_samples_repeat_with_their_seed(scene_file):
    ranges = {"body.ball.mass": (0.5, 2.0)}
    a = rows_of(contactlab.sweep(scene_file, ranges=ranges, samples=4, seed=3, progress=False))
    b = rows_of(contactlab.sweep(scene_file, ranges=ranges, samples=4, seed=3, progress=False))
    masses = sorted(r["body.ball.mass"] for r in a)
    assert [r["body.ball.mass"] for r in a] == [r["body.ball.mass"] for r in b]
    assert all(0.5 + 0.375 * k <= m < 0.5 + 0.375 * (k + 1) for k, m in enumerate(masses))


def without_times(rows):
    return [{k: v for k, v in r.items() if k not in ("wall_time", "host")} for r in rows]


def test_ray_backend_gives_the_local_summary_bit_for_bit(scene_file, tmp_path):
    ray = pytest.importorskip("ray", reason="Ray is not installed (.ci/run installs it)")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        local = rows_of(contactlab.sweep(scene_file, GRID, progress=False))
        remote = rows_of(contactlab.sweep(scene_file, GRID, backend="ray", out=tmp_path / "ray", progress=False))
    finally:
        ray.shutdown()
    assert without_times(remote) == without_times(local)
    assert (tmp_path / "ray" / "runs" / "0003" / "trajectory.csv").exists()
    assert (tmp_path / "ray" / "summary.csv").exists()


def test_a_scene_object_sweeps_as_its_file_does(scene_file):
    from_file = rows_of(contactlab.sweep(scene_file, {"sim.dt": [1e-3]}, progress=False))
    for scene in (contactlab.load_scene(scene_file), contactlab.Scene.from_toml(FREE_FALL)):
        rows = rows_of(contactlab.sweep(scene, {"sim.dt": [1e-3]}, progress=False))
        assert without_times(rows) == without_times(from_file)


def test_grids_that_are_not_lists_of_values_are_refused(scene_file):
    with pytest.raises(ValueError, match="no values"):
        contactlab.sweep(scene_file, {"sim.dt": []}, progress=False)
    with pytest.raises(TypeError, match="list of values"):
        contactlab.sweep(scene_file, {"sim.integrator": "dopri5"}, progress=False)
