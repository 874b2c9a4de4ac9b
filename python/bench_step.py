"""The Python overhead of one `sim.step()`: a trivial scene (a ball in free flight above the
ground, implicit Euler) stepped one call per step, against the same number of steps taken in
one call (`sim.step(n)`, the loop in Rust). A benchmark, not a test: run it by hand on a quiet
machine.

    python python/bench_step.py [steps]
"""

import os
import sys
import time

# This file sits beside the package's sources (python/contactlab/, without the native module):
# import the installed package instead.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)

import contactlab  # noqa: E402

SCENE = """
[sim]
duration = 1000.0
gravity = [0.0, 0.0, 0.0]

[[body]]
name = "ball"
mass = 1.0
position = [0.0, 0.0, 1.0]
shape = { type = "sphere", radius = 0.1 }
contact = { compliance = "compliant", hydroelastic_modulus = 1e5, resolution = 0.05 }

[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
contact = { compliance = "rigid" }
"""


def best_of(repeats, f):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    scene = contactlab.Scene.from_toml(SCENE)

    def python_loop():
        sim = contactlab.Simulation(scene)
        step = sim.step
        for _ in range(n):
            step()

    def rust_loop():
        sim = contactlab.Simulation(scene)
        sim.step(n)

    construct = best_of(5, lambda: contactlab.Simulation(scene))
    per_call = (best_of(5, python_loop) - construct) / n
    per_step = (best_of(5, rust_loop) - construct) / n
    print(f"{n} steps: {per_call * 1e6:.2f} µs per sim.step() call, {per_step * 1e6:.2f} µs per step in Rust")
    print(f"Python overhead per step: {(per_call - per_step) * 1e6:.2f} µs")


if __name__ == "__main__":
    main()
