"""Nothing a run starts outlives it, also when it is killed with SIGKILL."""

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from config import ROOT
from embedded.reaper import children
from harness.processes import clean_env, free_port, until


def alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def temporal_processes(parent: int) -> list[int]:
    """Children of `parent` that run the temporal CLI."""
    found = []
    for pid in children(parent):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(part.endswith(b"temporal") for part in cmdline[:1]):
            found.append(pid)
    return found


async def kill_and_expect_gone(parent: subprocess.Popen[str], orphans: list[int]) -> None:
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait(timeout=30)

    async def all_gone() -> bool:
        return not any(alive(pid) for pid in orphans)

    try:
        await until(all_gone, 60, f"processes {orphans} to die with their killed parent")
    finally:
        for pid in filter(alive, orphans):  # the test failed: leave nothing behind
            os.kill(pid, signal.SIGKILL)


@pytest.mark.e2e
async def test_killing_the_stack_kills_its_temporal_server(tmp_path: Path) -> None:
    projects = tmp_path / "projects.toml"
    projects.write_text('[projects.DEMO]\nrepository = "demo/calc"\n')
    names = ("temporal_ui", "temporal_http", "webhook", "emulator", "metrics", "codec")
    names += ("local_model", "toolserver")
    env = clean_env(
        **{f"TICKETSMITH_{n.upper()}_PORT": str(free_port()) for n in names},
        TICKETSMITH_TEMPORAL_ADDRESS=f"127.0.0.1:{free_port()}",
        TICKETSMITH_DATA_DIR=str(tmp_path),
        TICKETSMITH_PROJECTS_FILE=str(projects),
        TICKETSMITH_MODEL_PROVIDER="offline",
    )
    up = subprocess.Popen(
        [sys.executable, "-m", "embedded", "up"], cwd=ROOT, env=env, text=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:

        async def server_started() -> list[int]:
            return temporal_processes(up.pid)

        # Killed while it still starts the rest: the case of a run stopped from outside.
        servers = await until(server_started, 120, "the stack's temporal server")
        await kill_and_expect_gone(up, servers)
    finally:
        if up.poll() is None:
            os.killpg(up.pid, signal.SIGKILL)
            up.wait()


async def test_killing_a_test_run_kills_the_dev_server_the_sdk_started(tmp_path: Path) -> None:
    script = tmp_path / "run.py"
    script.write_text(
        textwrap.dedent(
            """
            import asyncio, shutil, sys
            from pathlib import Path
            from temporalio.testing import WorkflowEnvironment
            from harness.processes import guard_children

            async def main():
                temporal = shutil.which("temporal", path=str(Path(sys.executable).parent))
                env = await WorkflowEnvironment.start_local(
                    dev_server_existing_path=temporal, dev_server_extra_args=["--headless"]
                )
                guard_children()
                print("ready", flush=True)
                await asyncio.Event().wait()
                await env.shutdown()

            asyncio.run(main())
            """
        )
    )
    run = subprocess.Popen(
        [sys.executable, str(script)], cwd=ROOT, env=clean_env(PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        assert run.stdout is not None
        assert run.stdout.readline().strip() == "ready", "the run did not start its dev server"
        servers = temporal_processes(run.pid)
        assert servers, f"no dev server among the run's children {children(run.pid)}"
        await kill_and_expect_gone(run, servers)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
