"""The checkout a bench runs on, so that its results can be compared over time."""

import subprocess

from config import ROOT


def commit() -> str:
    """The checkout's short commit hash ("unknown" outside a git checkout)."""
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True)
    return done.stdout.decode().strip() or "unknown"
