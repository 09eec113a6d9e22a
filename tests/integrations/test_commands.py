"""The workspace command runner: output, exit codes, the allow-listed environment, cleanup."""

import asyncio
import time
import uuid
from pathlib import Path

import pytest

from harness.processes import until
from integrations.workspace.commands import run_command
from integrations.workspace.sandbox import SHARED_UID, Limits, Sandbox
from tests.support.sandboxes import root_sandbox, working_sandbox

TOKEN = "ghp_s3cr3t-token-value"


@pytest.fixture
def sandbox() -> Sandbox:
    return working_sandbox()


async def test_output_and_exit_code_come_back(tmp_path: Path, sandbox: Sandbox) -> None:
    script = "import sys; print('to stdout'); print('to stderr', file=sys.stderr); sys.exit(3)"
    result = await run_command(tmp_path, ["python3", "-c", script], 30, sandbox=sandbox)
    assert result.exit_code == 3
    assert "to stdout" in result.output and "to stderr" in result.output
    assert result.sandboxed and not result.timed_out and result.limit is None


async def test_a_missing_program_is_exit_code_127(tmp_path: Path, sandbox: Sandbox) -> None:
    result = await run_command(tmp_path, "no-such-program --flag", 30, sandbox=sandbox)
    assert result.exit_code == 127
    assert "no-such-program" in result.output


async def test_the_checkout_shadows_installed_modules(tmp_path: Path, sandbox: Sandbox) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "colorsys.py").write_text("WHERE = 'checkout'\n")  # shadows the stdlib
    (tmp_path / "flat_module.py").write_text("WHERE = 'flat'\n")
    script = "import colorsys, flat_module; print(colorsys.WHERE, flat_module.WHERE)"
    result = await run_command(tmp_path, ["python3", "-c", script], 30, sandbox=sandbox)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "checkout flat"


@pytest.mark.parametrize("mode", ["bwrap", "none"])
async def test_no_secret_reaches_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    monkeypatch.setenv("TICKETSMITH_GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("SOME_INNOCENT_NAME", TOKEN)  # an allow-list, not a deny-list
    sandbox = working_sandbox() if mode == "bwrap" else Sandbox(mode="none")
    script = "import os; print(sorted(os.environ.items()))"
    result = await run_command(tmp_path, ["python3", "-c", script], 30, sandbox=sandbox)
    assert result.exit_code == 0, result.output
    assert TOKEN not in result.output
    assert "'PATH'" in result.output
    assert result.sandboxed is (mode == "bwrap")


async def test_output_is_trimmed_to_its_tail(tmp_path: Path, sandbox: Sandbox) -> None:
    script = "print('x' * 20000)"
    result = await run_command(tmp_path, ["python3", "-c", script], 30, sandbox=sandbox)
    assert result.exit_code == 0
    assert len(result.output) <= 8000
    assert result.output.rstrip().endswith("x" * 100)


async def test_nothing_outlives_a_timeout(tmp_path: Path, sandbox: Sandbox) -> None:
    marker = f"{1000 + uuid.uuid4().int % 1000}.{uuid.uuid4().int % 997}"
    command = ["sh", "-c", f"echo started; sleep {marker} & sleep {marker}; wait"]
    result = await run_command(tmp_path, command, 2, sandbox=sandbox)
    assert result.timed_out and result.limit == "wall_time"
    assert "started" in result.output
    assert "wall time limit" in result.output
    deadline = time.monotonic() + 10
    while _processes_with(marker):
        assert time.monotonic() < deadline, "a process the command started outlived it"
        await asyncio.sleep(0.05)


async def test_unsandboxed_runs_still_get_cpu_and_memory_limits(tmp_path: Path) -> None:
    sandbox = Sandbox(mode="none", limits=Limits(memory_mb=256, cpu_seconds=1))
    hog = await run_command(tmp_path, ["python3", "-c", "bytearray(10**9)"], 30, sandbox=sandbox)
    assert hog.limit == "memory", hog.output
    loop = await run_command(tmp_path, ["python3", "-c", "while 1: pass"], 60, sandbox=sandbox)
    assert loop.limit == "cpu_time", loop.output
    assert not loop.sandboxed


# Holds its run (and so its uid) until the test lets it go, saying who it runs as.
WHO = """
import getpass, os, pathlib, time
pathlib.Path("started").write_text("")
while not pathlib.Path("go").exists():
    time.sleep(0.02)
pathlib.Path("mine").write_text("")
print(os.getuid(), getpass.getuser())
"""


async def test_runs_at_once_each_run_as_a_uid_of_their_own(tmp_path: Path) -> None:
    sandbox = root_sandbox()
    first, second = tmp_path / "ticket-A", tmp_path / "ticket-B"
    for root in (first, second):
        root.mkdir()
    (second / "go").write_text("")
    held = asyncio.create_task(run_command(first, ["python3", "-c", WHO], 60, sandbox=sandbox))

    async def started() -> bool:
        assert not held.done(), held.result().output
        return (first / "started").exists()

    await until(started, 30, "the first run to start")
    beside = await run_command(second, ["python3", "-c", WHO], 60, sandbox=sandbox)
    (first / "go").write_text("")
    one = await held
    assert one.exit_code == 0 and beside.exit_code == 0, one.output + beside.output
    runs = [(first, one), (second, beside)]
    uids = {root: int(result.output.split()[0]) for root, result in runs}
    assert uids[first] != uids[second]
    assert SHARED_UID not in uids.values()
    for root, uid in uids.items():
        assert (root / "mine").stat().st_uid == uid  # its workspace was given to it
    assert one.output.split()[1].startswith("ticketsmith-run-")  # getpass finds a name
    again = await run_command(second, ["python3", "-c", WHO], 60, sandbox=sandbox)
    assert int(again.output.split()[0]) == uids[second]  # the same workspace, the same uid


def _processes_with(marker: str) -> list[int]:
    """Pids whose command line holds `marker` (the sandboxed sleeps)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if marker in (proc / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(proc.name))
            except OSError:
                continue
    return found
