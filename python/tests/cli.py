"""The command-line binary of the same checkout, when cargo has built it."""

import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def contactlab_binary():
    """The newest of the binaries cargo builds: the README's test command builds the
    release-test one, `cargo build --release` the release one."""
    paths = [os.path.join(ROOT, "target", profile, "contactlab") for profile in ("release-test", "release")]
    built = [p for p in paths if os.path.exists(p)]
    return max(built, key=os.path.getmtime) if built else None
