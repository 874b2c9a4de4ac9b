"""Parameter sweeps from Python: the same runs and summary as ``contactlab sweep``, on local
cores (``backend="local"``) or as tasks of a Ray cluster (``backend="ray"``).

The summary is one row per run (a dict, or a pandas DataFrame when pandas is installed) with
the same columns as ``summary.csv``: ``run``, each swept key, ``status``, ``t_end``, each moving
body's final ``BODY.x`` … ``BODY.qz``, ``max_penetration``, ``max_contact_force``,
``energy_excess``, ``steps``, ``wall_time``, ``host`` and ``message``. Both backends give the same
rows, bit for bit, except ``wall_time`` and ``host``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence, Tuple

from . import _contactlab as _native

__all__ = ["sweep"]


def sweep(
    scene,
    grid: Optional[Mapping[str, Sequence[Any]]] = None,
    *,
    ranges: Optional[Mapping[str, Tuple[float, float]]] = None,
    samples: Optional[int] = None,
    seed: int = 0,
    backend: str = "local",
    address: Optional[str] = None,
    out=None,
    jobs: Optional[int] = None,
    progress: bool = True,
):
    """Runs ``scene`` once per combination of ``grid``'s values.

    scene: a scene file's path, or a :class:`contactlab.Scene`.
    grid: ``{key: [values]}``; keys are dotted paths into the scene (``"sim.dt"``,
        ``"body.ball.contact.friction"``, ``"body.ball.position.2"``; docs/sweep.md). The runs
        are the cartesian product, the last key varying fastest.
    ranges, samples, seed: ``{key: (lo, hi)}`` sampled ``samples`` times by Latin hypercube
        (the same seed gives the same samples), combined with every grid combination.
    backend: ``"local"`` (every run single-threaded on local cores, ``jobs`` at once, default
        one per core) or ``"ray"`` (each run a Ray task of the cluster at ``address``; an
        already initialised Ray is used as it is; ``None`` starts a local one).
    out: a folder for each run's outputs (``runs/NNNN``) and ``summary.csv``; the local backend
        resumes a sweep there (runs that succeeded are skipped). Ray workers must reach it (a
        shared file system); without it, Ray runs write into a temporary folder on each worker.
        The Ray backend neither resumes nor overwrites a sweep (it refuses a folder with runs).
    progress: a bar on stderr.

    Returns the summary rows (a pandas DataFrame when pandas is installed). A run that fails is
    a row with ``status == "failed"`` and its ``message``; keys that lead nowhere or a bad scene
    raise ``ValueError`` before any run.
    """
    text, base_dir = _scene_source(scene)
    grid = dict(grid or {})
    for key, values in grid.items():
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise TypeError(f"grid[{key!r}] = {values!r}: give a list of values, e.g. [{values!r}]")
    ranges = {k: (float(lo), float(hi)) for k, (lo, hi) in (ranges or {}).items()}
    if backend == "local":
        if out is None:
            with tempfile.TemporaryDirectory(prefix="contactlab-sweep-") as tmp:
                keys, bodies, records = _native.sweep_local(
                    text, base_dir, grid, ranges, samples, seed, tmp, jobs, progress
                )
        else:
            keys, bodies, records = _native.sweep_local(
                text, base_dir, grid, ranges, samples, seed, os.fspath(out), jobs, progress
            )
    elif backend == "ray":
        keys, bodies, records = _sweep_ray(text, base_dir, grid, ranges, samples, seed, address, out, progress)
    else:
        raise ValueError(f"backend {backend!r} is unknown; use \"local\" or \"ray\"")
    rows = _native.summary_rows(keys, bodies, records)
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame(rows)


def _scene_source(scene) -> Tuple[str, str]:
    """The scene's text and the folder its relative mesh files resolve against."""
    if isinstance(scene, (str, os.PathLike)):
        path = Path(scene)
        try:
            text = path.read_text()
        except OSError as e:
            raise ValueError(f"cannot read scene {path}: {e}") from e
        return text, os.fspath(path.parent)
    text = getattr(scene, "toml", None)
    base_dir = getattr(scene, "base_dir", None)
    if text is None or base_dir is None:
        raise TypeError("scene must be a path or a contactlab.Scene")
    return text, os.fspath(base_dir)


def _sweep_ray(text, base_dir, grid, ranges, samples, seed, address, out, progress):
    import ray

    shipped_files = [k for k in list(grid) + list(ranges) if k.split(".")[-1] == "file"]
    if shipped_files:
        raise ValueError(
            f"{shipped_files[0]}: the ray backend ships the base scene's mesh files only; "
            "sweep mesh files with backend=\"local\", or make one scene per mesh"
        )
    if out is not None and (Path(out) / "runs").exists():
        raise ValueError(
            f"{out} already holds a sweep's runs; the ray backend does not resume one: "
            "give another out, or resume with backend=\"local\""
        )
    keys, bodies, runs, folders = _native.sweep_plan(text, base_dir, grid, ranges, samples, seed)
    portable, files = _native.portable_scene(text, base_dir)
    shipped = {"text": portable, "files": {name: Path(path).read_bytes() for name, path in files}}
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False, include_dashboard=False)
    payload = ray.put(shipped)  # the scene and its meshes, once
    run_remote = ray.remote(num_cpus=1)(_ray_run)
    out_dir = None if out is None else os.fspath(Path(out).resolve())
    pending = [
        run_remote.remote(payload, i, list(zip(keys, values)), out_dir, folder)
        for i, (values, folder) in enumerate(zip(runs, folders))
    ]
    records = [None] * len(pending)
    index = {ref: i for i, ref in enumerate(pending)}
    bar = _Bar(len(pending), progress)
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            records[index[ref]] = ray.get(ref)
            bar.update()
    bar.close()
    if out_dir is not None:
        _native.write_summary(os.path.join(out_dir, "summary.csv"), keys, bodies, records)
    return keys, bodies, records


# The scenes a worker process has written out: payload hash → folder.
_materialized = {}


def _ray_run(payload, run, assignment, out_dir, folder):
    """One run on a Ray worker: the shipped scene written out once per process, then the run."""
    digest = hashlib.sha256(payload["text"].encode())
    for name, data in sorted(payload["files"].items()):
        digest.update(name.encode())
        digest.update(data)
    digest = digest.hexdigest()
    base_dir = _materialized.get(digest)
    if base_dir is None:
        base_dir = tempfile.mkdtemp(prefix="contactlab-scene-")
        for name, data in payload["files"].items():
            path = Path(base_dir) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        _materialized[digest] = base_dir
    if out_dir is None:
        with tempfile.TemporaryDirectory(prefix="contactlab-run-") as tmp:
            return _native.run_assignment(payload["text"], base_dir, run, assignment, tmp)
    run_dir = os.path.join(out_dir, folder)
    return _native.run_assignment(payload["text"], base_dir, run, assignment, run_dir)


class _Bar:
    """A tqdm-style bar on stderr (tqdm itself when it is installed)."""

    def __init__(self, total, enabled):
        self.total, self.done, self.enabled, self.tqdm = total, 0, enabled, None
        if enabled:
            try:
                from tqdm import tqdm

                self.tqdm = tqdm(total=total, unit="run", file=sys.stderr)
            except ImportError:
                pass

    def update(self):
        self.done += 1
        if self.tqdm is not None:
            self.tqdm.update(1)
        elif self.enabled:
            filled = 20 * self.done // max(self.total, 1)
            sys.stderr.write(f"\rsweeping [{'#' * filled}{'.' * (20 - filled)}] {self.done}/{self.total} runs")
            sys.stderr.flush()

    def close(self):
        if self.tqdm is not None:
            self.tqdm.close()
        elif self.enabled:
            sys.stderr.write("\n")
