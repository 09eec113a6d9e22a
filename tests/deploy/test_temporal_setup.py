"""deploy/temporal-setup.sh against a real Temporal server: a new namespace, then idempotent."""

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from config import ROOT
from embedded.services import SEARCH_ATTRIBUTES
from harness.processes import clean_env, free_port, kill, spawn

SCRIPT = ROOT / "deploy" / "temporal-setup.sh"
BIN = Path(sys.executable).parent


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A Temporal dev server of its own; its address."""
    port = free_port()
    argv = [
        str(BIN / "temporal"), "server", "start-dev", "--headless", "--ip", "127.0.0.1",
        "--port", str(port), "--db-filename", str(tmp_path / "t.db"), "--log-level", "error",
    ]  # fmt: skip
    process = spawn(argv, clean_env(), tmp_path / "temporal.log")
    try:
        yield f"127.0.0.1:{port}"
    finally:
        kill(process)


def run_setup(address: str, namespace: str) -> subprocess.CompletedProcess[str]:
    env = clean_env(
        PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}",
        TEMPORAL_ADDRESS=address,
        TEMPORAL_NAMESPACE=namespace,
        SEARCH_ATTRIBUTES=" ".join(SEARCH_ATTRIBUTES),
    )
    return subprocess.run(["sh", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=180)


def test_setup_creates_a_new_namespace_and_its_search_attributes_once(server: str) -> None:
    first = run_setup(server, "tickets")  # waits for the server, then for the new namespace
    assert first.returncode == 0, first.stderr
    again = run_setup(server, "tickets")
    assert again.returncode == 0, again.stderr
    listed = subprocess.run(
        [str(BIN / "temporal"), "operator", "search-attribute", "list", "-n", "tickets",
         "--address", server],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    for name in SEARCH_ATTRIBUTES:
        assert name in listed
        assert f"search attribute {name} exists" in again.stdout
