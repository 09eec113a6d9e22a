"""Commands run in a workspace (a project's tests): no shell, no secrets, bounded output."""

import asyncio
import contextlib
import os
import re
import shlex
import signal
import sys
import time
from pathlib import Path

from pydantic import BaseModel

OUTPUT_LIMIT = 8000
WORKER_PYTEST_OPTIONS = ("-p", "no:langsmith_plugin")
_SECRET_ENV = re.compile(r"^(GIT_|TICKETSMITH_)|TOKEN|SECRET|PASSWORD|API_KEY", re.IGNORECASE)


class CommandResult(BaseModel):
    """What a command run in the workspace did."""

    exit_code: int
    output: str
    timed_out: bool
    duration_s: float


def kill_group(proc: asyncio.subprocess.Process) -> None:
    """Kill the process and everything it started (it leads its own process group)."""
    # A pid stays reserved while it names a live group, so this cannot hit a stranger.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


async def run_command(root: Path, command: str, timeout_s: float) -> CommandResult:
    """Run a command (no shell) in `root`, killing its process group on timeout."""
    argv = shlex.split(command)
    if not argv:
        raise ValueError("empty command")
    env = {k: v for k, v in os.environ.items() if not _SECRET_ENV.search(k)}
    # The interpreter running ticketsmith comes first, so `python -m pytest` finds pytest.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # The checkout's own packages (flat or src layout) shadow any installed copy of them.
    own = [str(p) for p in (root / "src", root) if p.is_dir()]
    env["PYTHONPATH"] = os.pathsep.join([*own, *filter(None, [env.get("PYTHONPATH")])])
    # The worker's own pytest plugins are not the project's; langsmith's costs a second a run.
    env["PYTEST_ADDOPTS"] = " ".join(
        [*WORKER_PYTEST_OPTIONS, env.get("PYTEST_ADDOPTS", "")]
    ).strip()
    started = time.monotonic()
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            cwd=root,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )
    except (FileNotFoundError, PermissionError) as err:
        output = f"cannot run {argv[0]!r}: {err.strerror}"
        return CommandResult(exit_code=127, output=output, timed_out=False, duration_s=0.0)
    buffer = bytearray()
    reader = asyncio.ensure_future(_collect(proc, buffer))
    try:
        timed_out = not (await asyncio.wait([reader], timeout=timeout_s))[0]
    finally:  # also on cancellation: nothing the command started outlives it
        kill_group(proc)
        reader.cancel()
        await proc.wait()
    output = bytes(buffer[-OUTPUT_LIMIT * 4 :]).decode(errors="replace")[-OUTPUT_LIMIT:]
    return CommandResult(
        exit_code=proc.returncode if proc.returncode is not None else -1,
        output=output,
        timed_out=timed_out,
        duration_s=round(time.monotonic() - started, 3),
    )


async def _collect(proc: asyncio.subprocess.Process, buffer: bytearray) -> None:
    """Read the process's output to the end, keeping only a bounded tail."""
    if proc.stdout is None:
        return
    while chunk := await proc.stdout.read(65536):
        buffer.extend(chunk)
        if len(buffer) > OUTPUT_LIMIT * 8:
            del buffer[: -OUTPUT_LIMIT * 4]
    await proc.wait()
