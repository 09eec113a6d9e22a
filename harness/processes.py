"""Processes for end-to-end tests: the emulators and workers, on free ports, killable."""

import asyncio
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

import httpx
from temporalio.common import SearchAttributeKey
from temporalio.converter import DataConverter
from temporalio.testing import WorkflowEnvironment

from config import ROOT, get_settings
from embedded.reaper import Reaper, popen_bound
from embedded.services import SEARCH_ATTRIBUTES

T = TypeVar("T")
_reaper: list[Reaper] = []


def guard_children() -> None:
    """Kill every current child of the test run (servers started by the SDK too) with it."""
    if not _reaper:
        _reaper.append(Reaper())
    _reaper[0].guard_children()


def release_children() -> None:
    """At the end of the run: kill what the run started and did not stop."""
    while _reaper:
        _reaper.pop().close()


# Below the kernel's ephemeral range (32768-60999 by default): an outgoing connection cannot
# take a port chosen here before the service that is to listen on it binds it.
_ALL_PORTS = range(20000, 32000)
_given: set[int] = set()


def worker_ports(
    worker: str | None = os.environ.get("PYTEST_XDIST_WORKER"),
    count: str | None = os.environ.get("PYTEST_XDIST_WORKER_COUNT"),
) -> range:
    """This test process's own share of the ports: parallel workers never choose the same one."""
    if not worker or not count:
        return _ALL_PORTS
    share = len(_ALL_PORTS) // int(count)
    start = _ALL_PORTS.start + share * int(worker.removeprefix("gw"))
    return range(start, start + share)


_PORTS = worker_ports()


def free_port() -> int:
    """A port nothing listens on right now, not handed out before in this run."""
    chooser = random.Random(os.getpid() ^ time.monotonic_ns())
    for _ in range(200):
        port = chooser.choice(_PORTS)
        if port not in _given and _bindable(port):
            _given.add(port)
            return port
    raise RuntimeError(f"no free port between {_PORTS.start} and {_PORTS.stop}")


def _bindable(port: int) -> bool:
    """Whether a listening socket could bind the port on the loopback address now."""
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def clean_env(**overrides: str) -> dict[str, str]:
    """This environment without ticketsmith or model settings, plus the overrides."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("TICKETSMITH_", "OPENAI_")) and k != "PYTEST_CURRENT_TEST"
    }
    return {**env, "PYTHONUNBUFFERED": "1", **overrides}


def spawn(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start a process in its own process group, its output in a log file; it dies with us."""
    with log.open("ab") as out:
        return popen_bound(
            argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip


def kill(process: subprocess.Popen[bytes], sig: signal.Signals = signal.SIGKILL) -> None:
    """Send a signal to the process's whole group and reap it."""
    if process.poll() is None:
        os.killpg(process.pid, sig)
    process.wait(timeout=30)


async def until(
    check: Callable[[], Awaitable[T | None]], timeout_s: float, what: str, interval_s: float = 0.1
) -> T:
    """Poll `check` until it returns something, failing with `what` after the deadline."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = await check()
        if found:
            return found
        await asyncio.sleep(interval_s)
    raise TimeoutError(f"gave up after {timeout_s:.0f} s waiting for {what}")


async def start_emulators(port: int, state_dir: Path, log: Path) -> subprocess.Popen[bytes]:
    """The emulators (Jira, GitHub, git hosting, Discord), freshly seeded, once healthy."""
    argv = [sys.executable, "-m", "embedded.launch", "emulators", "-m", "emulators",
            "--host", "127.0.0.1", "--port", str(port), "--state-dir", str(state_dir),
            "--reset"]  # fmt: skip
    process = spawn(argv, clean_env(), log)

    async def healthy() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"the emulators exited; see {log}")
        try:
            async with httpx.AsyncClient(timeout=2) as http:
                response = await http.get(f"http://127.0.0.1:{port}/_emulator/health")
                return response.is_success
        except httpx.HTTPError:
            return False

    await until(healthy, get_settings().ready_timeout_seconds, "the emulators")
    return process


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """The real worker (`worker.py`) as a separate process."""
    return spawn([sys.executable, "-m", "embedded.launch", "worker", "worker.py"], env, log)


def venv_binary(name: str) -> str:
    """A binary installed next to this interpreter (the venv's), else one on PATH."""
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        raise FileNotFoundError(f"{name} is not installed; run `make install`")
    return found


@asynccontextmanager
async def dev_server(converter: DataConverter) -> AsyncIterator[WorkflowEnvironment]:
    """A dev server with our search attributes on a free port, its client using `converter`."""
    server = await WorkflowEnvironment.start_local(
        data_converter=converter,
        dev_server_existing_path=venv_binary("temporal"),
        search_attributes=[SearchAttributeKey.for_keyword(n) for n in SEARCH_ATTRIBUTES],
        dev_server_log_level="error",
    )
    guard_children()
    async with server:
        yield server
