"""Neighbours that cannot hurt each other: a fork bomb and a memory hog in two tickets run
beside a normal ticket's tests on one worker, which pass; the hostile ones are stopped and
reported by the limit they hit."""

import asyncio
from pathlib import Path

import pytest

from activities.messages import RepoRef, RunTestsResult
from activities.repo import RepoActivities, Workspaces
from harness.processes import until
from integrations.environments.build import Environments
from integrations.workspace.sandbox import SHARED_UID
from tests.support.sandboxes import SMALL, root_sandbox
from tests.support.victim import run_attack, victim_remote

# Forks until the processes limit refuses, then holds every process until told to let go, so
# the neighbours run while its uid has no process to spare.
BOMB = """
import os, pathlib, time

def hold():
    while not pathlib.Path("release").exists():
        time.sleep(0.05)

def test_bomb():
    forked = 0
    try:
        while True:
            if os.fork() == 0:
                hold()
                os._exit(0)
            forked += 1
    except BlockingIOError:
        pathlib.Path("full").write_text(f"{os.getuid()} {forked}")
        hold()
        raise
"""
HOG = "def test_hog():\n    hog = bytearray(4 * 1024**3)\n"
NORMAL = """
import os, pathlib, subprocess, sys, threading

def test_starts_a_process_and_a_thread():
    child = subprocess.run([sys.executable, "-c", "print('child ran')"],
                           capture_output=True, text=True, check=True)
    assert child.stdout.strip() == "child ran"
    done = []
    thread = threading.Thread(target=lambda: done.append(True))
    thread.start()
    thread.join()
    assert done == [True]
    print("uid", os.getuid())

def test_the_shared_environment_is_readable_not_writable():
    env = pathlib.Path(os.environ["VIRTUAL_ENV"])
    assert "home" in (env / "pyvenv.cfg").read_text()
    try:
        (env / "planted").write_text("x")
    except OSError:
        print("environment write BLOCKED")

def test_the_bombs_workspace_is_out_of_reach():
    try:
        pathlib.Path({bomb_file!r}).read_text()
    except OSError:
        print("other workspace BLOCKED")
"""
WAIT_S = 240  # set-up of the shared environment comes first, on a busy machine


@pytest.fixture
def activities(tmp_path: Path) -> RepoActivities:
    """run_tests for one worker as root: one environment cache, each run a uid of its own."""
    environments = Environments(tmp_path / "environments", root_sandbox(SMALL))
    return RepoActivities(Workspaces(tmp_path / "workspaces", None, "t", "t@e", environments))


def ticket(remote: RepoRef, key: str) -> RepoRef:
    return remote.model_copy(update={"workflow_id": f"ticket-{key}", "branch": f"ts/{key}"})


async def test_a_fork_bomb_and_a_memory_hog_cannot_starve_a_normal_ticket(
    activities: RepoActivities, tmp_path: Path
) -> None:
    remote = victim_remote(tmp_path)
    workspace = tmp_path / "workspaces" / "ticket-BOMB-1" / "tests"
    bomb = asyncio.create_task(run_attack(activities, ticket(remote, "BOMB-1"), BOMB, 120))
    try:

        async def bombed() -> str | None:
            if bomb.done():
                raise AssertionError(f"the bomb ended early: {bomb.result().output[-2000:]}")
            full = workspace / "full"
            return full.read_text() if full.is_file() else None

        bomb_uid, forked = (await until(bombed, WAIT_S, "the bomb to fill its uid")).split()
        normal_suite = NORMAL.format(bomb_file=str(workspace / "full"))
        normal, hog = await asyncio.gather(
            run_attack(activities, ticket(remote, "NORMAL-2"), normal_suite, 120),
            run_attack(activities, ticket(remote, "HOG-3"), HOG, 120),
        )
    finally:
        if workspace.is_dir():
            (workspace / "release").write_text("")
    bombed_result: RunTestsResult = await bomb

    assert normal.passed, normal.output[-3000:]
    assert "4 passed" in normal.output  # the repository's own test and the three above
    assert "environment write BLOCKED" in normal.output
    assert "other workspace BLOCKED" in normal.output
    assert "reused from the cache" in normal.output  # built once, for the bomb's ticket
    assert not bombed_result.passed and bombed_result.limit == "processes"
    assert "[stopped: the processes limit was hit]" in bombed_result.output
    assert int(forked) >= SMALL.processes // 2, "the bomb never came near its limit"
    assert not hog.passed and hog.limit == "memory", hog.output[-2000:]
    assert "[stopped: the memory limit was hit]" in hog.output
    normal_uid = normal.output.split("uid ", 1)[1].split()[0]
    assert normal_uid != bomb_uid
    assert SHARED_UID not in {int(normal_uid), int(bomb_uid)}
