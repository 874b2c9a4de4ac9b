"""Sweep throughput from Python: a 64-run sweep of examples/ball_drop.toml (Latin-hypercube
samples of the damped ball's dissipation) with the local backend (jobs=1 and jobs=2) and the
Ray backend on a local cluster of 2 CPUs; prints runs per second and Ray's overhead per run
beyond the local backend with the same parallelism. A benchmark, not a test.

    python python/bench_sweep.py [REPEATS]
"""

import os
import sys
import time
from pathlib import Path

# This file sits beside the package's sources (python/contactlab/, without the native module):
# import the installed package instead.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)

import contactlab  # noqa: E402

SCENE = Path(__file__).resolve().parent.parent / "examples" / "ball_drop.toml"
RANGES = {"body.damped.contact.dissipation": (0.0, 1.0)}
RUNS = 64


def timed(grid=None, **kwargs):
    start = time.perf_counter()
    rows = contactlab.sweep(SCENE, grid, ranges=RANGES, samples=RUNS, progress=False, **kwargs)
    wall = time.perf_counter() - start
    rows = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
    assert all(r["status"] == "ok" for r in rows), [r["message"] for r in rows if r["status"] != "ok"]
    return wall, rows


def main():
    import ray

    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    timed(backend="ray")  # workers started and the package imported once
    best = {}
    for _ in range(repeats):
        for name, kwargs in [("local, jobs=1", {"jobs": 1}), ("local, jobs=2", {"jobs": 2}), ("ray, 2 CPUs", {"backend": "ray"})]:
            wall, rows = timed(**kwargs)
            best[name] = min(best.get(name, wall), wall)
            best.setdefault(name + " rows", rows)
    ray.shutdown()
    strip = lambda rows: [{k: v for k, v in r.items() if k not in ("wall_time", "host")} for r in rows]
    same = strip(best["ray, 2 CPUs rows"]) == strip(best["local, jobs=2 rows"])
    for name in ["local, jobs=1", "local, jobs=2", "ray, 2 CPUs"]:
        print(f"{name:14s}: {best[name]:.3f} s, {RUNS / best[name]:.2f} runs/s (best of {repeats})")
    overhead = (best["ray, 2 CPUs"] - best["local, jobs=2"]) * 2 / RUNS
    print(f"Ray overhead per run (2 workers): {overhead * 1e3:.1f} ms; summaries equal but wall_time/host: {same}")
    # The overhead alone: runs of one output step (each mostly start-up and files).
    short = {"sim.duration": [0.002]}
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    timed(short, backend="ray")
    local = min(timed(short, jobs=2)[0] for _ in range(repeats))
    remote = min(timed(short, backend="ray")[0] for _ in range(repeats))
    ray.shutdown()
    print(
        f"64 runs of 2 ms: local jobs=2 {local * 1e3:.0f} ms, ray {remote * 1e3:.0f} ms: "
        f"overhead {(remote - local) * 2 / RUNS * 1e3:.1f} ms per run and worker"
    )


if __name__ == "__main__":
    main()
