"""The one way to run a command in a workspace (tests, CI, environment set-up): sandboxed.

No shell, an environment built from an allow-list (no secret reaches it), the sandbox's
limits, bounded output, and nothing the command started outlives it.
"""

import asyncio
import contextlib
import os
import resource
import shlex
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel

from integrations.workspace.limits import LIMIT_NAMES, limit_hit
from integrations.workspace.sandbox import Limits, Mounts, Sandbox, sandbox_from

OUTPUT_LIMIT = 8000
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
# The worker's own environment passes only these (never a token, a key or ticketsmith's settings).
PASSED_ENV = ("LANG", "LC_ALL", "LC_CTYPE", "TZ")


class CommandResult(BaseModel):
    """What a command run in the workspace did, and which limit stopped it, if one did."""

    exit_code: int
    output: str
    timed_out: bool
    duration_s: float
    limit: str | None = None
    sandboxed: bool = False


def kill_group(proc: asyncio.subprocess.Process) -> None:
    """Kill the process and everything it started (it leads its own process group)."""
    # A pid stays reserved while it names a live group, so this cannot hit a stranger.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def command_env(root: Path, env_dir: Path | None, extra: Mapping[str, str]) -> dict[str, str]:
    """The environment a workspace command gets: an allow-list, the repository's venv first."""
    env = {k: os.environ[k] for k in PASSED_ENV if k in os.environ}
    env.setdefault("LANG", "C.UTF-8")
    path = SYSTEM_PATH
    if env_dir is not None:
        path = f"{env_dir / 'bin'}:{path}"
        env["VIRTUAL_ENV"] = str(env_dir)
    # The checkout's own packages (flat or src layout) come first, installed or not.
    own = [str(p) for p in (root / "src", root) if p.is_dir()]
    env.update(
        PATH=path,
        HOME="/tmp",
        TMPDIR="/tmp",
        TERM="dumb",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONPATH=os.pathsep.join(own),
    )
    env.update(extra)
    return env


async def run_command(
    root: Path,
    command: str | Sequence[str],
    timeout_s: float,
    *,
    env_dir: Path | None = None,
    sandbox: Sandbox | None = None,
    network: bool = False,
    extra_env: Mapping[str, str] | None = None,
    mounts: Mounts | None = None,
) -> CommandResult:
    """Run a command (a string split like a shell would, or argv) in `root`, sandboxed.

    `env_dir` is a virtual environment to run in (read-only unless `mounts` says otherwise);
    `network` is for environment set-up only. The sandbox defaults to the worker's settings.
    """
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    if not argv:
        raise ValueError("empty command")
    sandbox = sandbox or default_sandbox()
    mounts = mounts or Mounts()
    readable = [*mounts.readable, *([env_dir] if env_dir else [])]
    writable = [root, *mounts.writable]
    jail = Mounts(writable=writable, readable=readable, files=mounts.files)
    env = command_env(root, env_dir, extra_env or {})
    if env.get("HOME") == "/tmp" and not sandbox.sandboxed:
        env["HOME"] = env["TMPDIR"] = str(_scratch(root))
    async with sandbox.for_run(str(root), timeout_s) as run:
        run.give([root])
        run.give(mounts.writable, always=False)
        return await _jailed(run, argv, root, jail, env, network, timeout_s)


async def _jailed(
    sandbox: Sandbox,
    argv: list[str],
    root: Path,
    jail: Mounts,
    env: dict[str, str],
    network: bool,
    timeout_s: float,
) -> CommandResult:
    """Run argv in the sandbox as it stands for this run, bounded by time and output."""
    started = time.monotonic()
    # Our own pipe, not asyncio's: its wait() would hang on unread output after a kill.
    read_end, write_end = os.pipe()
    try:
        proc = await asyncio.create_subprocess_exec(
            *sandbox.wrap(argv, root, jail, network),
            cwd=root,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=write_end,
            stderr=write_end,
            start_new_session=True,
            # What one run builds (an environment) others read, each as a uid of its own.
            umask=0o022 if sandbox.drops_root else -1,
            preexec_fn=None if sandbox.sandboxed else _rlimits(sandbox.limits),
        )
    except (FileNotFoundError, PermissionError) as err:
        os.close(read_end)
        output = f"cannot run {argv[0]!r}: {err.strerror}"
        return CommandResult(exit_code=127, output=output, timed_out=False, duration_s=0.0)
    finally:
        os.close(write_end)
    stream = asyncio.StreamReader(limit=1 << 20)
    pipe, _ = await asyncio.get_running_loop().connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(stream), os.fdopen(read_end, "rb", buffering=0)
    )
    buffer = bytearray()
    reader = asyncio.ensure_future(_collect(proc, stream, buffer, sandbox.limits.output_bytes))
    try:
        timed_out = not (await asyncio.wait([reader], timeout=timeout_s))[0]
    finally:  # also on cancellation: nothing the command started outlives it
        kill_group(proc)
        reader.cancel()
        pipe.close()
        await proc.wait()
    too_much = not timed_out and not reader.cancelled() and reader.result()
    output = bytes(buffer[-OUTPUT_LIMIT * 4 :]).decode(errors="replace")[-OUTPUT_LIMIT:]
    code = proc.returncode if proc.returncode is not None else -1
    limit = limit_hit(code, output, timed_out=timed_out, too_much_output=too_much)
    if limit:
        output += f"\n[stopped: the {LIMIT_NAMES[limit]} limit was hit]"
    return CommandResult(
        exit_code=code,
        output=output,
        timed_out=timed_out,
        duration_s=round(time.monotonic() - started, 3),
        limit=limit,
        sandboxed=sandbox.sandboxed,
    )


def default_sandbox() -> Sandbox:
    """The sandbox the worker's settings describe."""
    from config import get_settings  # late: integrations do not depend on settings at import
    from config.sandbox import SandboxSettings

    return sandbox_from(get_settings(SandboxSettings))


def _scratch(root: Path) -> Path:
    """A private home and temporary directory for an unsandboxed run, beside the workspace."""
    scratch = root.parent / f".{root.name}-tmp"
    scratch.mkdir(exist_ok=True)
    return scratch


def _rlimits(limits: Limits) -> Callable[[], None]:
    """Set the limits in the child before it runs the command (unsandboxed runs)."""

    def apply() -> None:
        for name, (soft, hard) in limits.rlimits().items():
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(getattr(resource, name), (soft, hard))

    return apply


async def _collect(
    proc: asyncio.subprocess.Process, stream: asyncio.StreamReader, buffer: bytearray, cap: int
) -> bool:
    """Read the output to its end keeping a bounded tail, then wait for the process to exit;
    True (at once) when the output passed `cap` bytes."""
    total = 0
    while chunk := await stream.read(65536):
        total += len(chunk)
        buffer.extend(chunk)
        if len(buffer) > OUTPUT_LIMIT * 8:
            del buffer[: -OUTPUT_LIMIT * 4]
        if total > cap:
            return True
    await proc.wait()
    return False
