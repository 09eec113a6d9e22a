"""The command line's tests see only the Temporal configuration they set."""

import os
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def no_temporal_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Only what a test sets: no TEMPORAL_* of the shell, no temporal.toml of the user."""
    for name in list(os.environ):
        if name.startswith("TEMPORAL_") or name.startswith("TICKETSMITH_TEMPORAL_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
