"""contactlab: contact-rich rigid-body simulation from Python.

The native module (Rust, PyO3) holds scenes, contact queries and the resumable simulation;
this package re-exports it, and is where pure-Python helpers (e.g. parameter sweeps) live.
See docs/python.md.
"""

from ._contactlab import (  # noqa: F401
    Scene,
    Simulation,
    SimulationError,
    State,
    __version__,
    load_scene,
)

from .sweep import sweep  # noqa: E402

__all__ = ["Scene", "Simulation", "SimulationError", "State", "load_scene", "sweep", "__version__"]
