"""The command-line binary of the same checkout, when cargo has built it."""

import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def contactlab_binary():
    path = os.path.join(ROOT, "target", "release", "contactlab")
    return path if os.path.exists(path) else None
