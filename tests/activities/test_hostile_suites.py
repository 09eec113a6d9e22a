"""Proof by attack: hostile test suites run by `run_tests` are contained and reported, and the
worker goes on serving the next ticket."""

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from temporalio.testing import ActivityEnvironment

from activities.messages import RepoRef, RunTestsInput
from activities.repo import RepoActivities, Workspaces
from graphs.schemas import FileChange
from integrations.environments.build import Environments
from tests.support.sandboxes import working_sandbox
from tests.support.victim import GOOD_TEST, git, run_attack, victim_remote

SECRET = "tsk-hostile-secret-0451"


@pytest.fixture
def remote(tmp_path: Path) -> RepoRef:
    """A benign repository (one passing test) as a bare remote."""
    return victim_remote(tmp_path)


@pytest.fixture
def worker_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """What a worker holds: a secret in its environment, .env, a settings file, a workspace."""
    monkeypatch.setenv("TICKETSMITH_GITHUB_TOKEN", SECRET)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    home = tmp_path / "worker"
    (home / "data" / "workspaces" / "ticket-OTHER-2" / "tests").mkdir(parents=True)
    files = {
        "dotenv": home / ".env",
        "settings": home / "projects.toml",
        "other_workspace": home / "data" / "workspaces" / "ticket-OTHER-2" / "tests" / "key.txt",
    }
    for path in files.values():
        path.write_text(f"TOKEN={SECRET}\n")
    return files


@pytest.fixture
async def listener() -> AsyncIterator[tuple[int, list[str]]]:
    """A TCP service on localhost, standing for the emulators, Temporal and the webhook app."""
    connections: list[str] = []

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append("connected")
        writer.close()

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield port, connections


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> Environments:
    """One environment cache for the module, as one worker has: built once, then reused."""
    return Environments(tmp_path_factory.mktemp("environments"), working_sandbox())


@pytest.fixture
def activities(tmp_path: Path, environments: Environments) -> RepoActivities:
    """run_tests on workspaces whose environments are built in a sandbox with small limits."""
    return RepoActivities(Workspaces(tmp_path / "workspaces", None, "t", "t@e", environments))


async def test_secrets_files_and_services_are_out_of_reach(
    activities: RepoActivities,
    remote: RepoRef,
    worker_files: dict[str, Path],
    listener: tuple[int, list[str]],
    tmp_path: Path,
) -> None:
    port, connections = listener
    outside = tmp_path / "worker" / "planted.txt"
    targets = {name: str(path) for name, path in worker_files.items()}
    attack = f"""
import os, socket, pathlib

def attempt(what, action):
    try:
        print(what, "GOT", action())
    except Exception as err:
        print(what, "BLOCKED", type(err).__name__)

def test_attack():
    print("environ", "GOT" if any({SECRET!r} in v for v in os.environ.values()) else "BLOCKED")
    for name, path in {targets!r}.items():
        attempt(name, lambda: pathlib.Path(path).read_text())
    attempt("tcp", lambda: socket.create_connection(("127.0.0.1", {port}), timeout=3))
    attempt("write-outside", lambda: pathlib.Path({str(outside)!r}).write_text("x"))
    attempt("write-system", lambda: pathlib.Path("/usr/planted").write_text("x"))
    attempt("write-env", lambda: pathlib.Path(os.environ["VIRTUAL_ENV"], "x").write_text("x"))
    attempt("home", lambda: os.listdir("/root"))
    hook = pathlib.Path(".git", "hooks", "post-checkout")
    attempt("git-hook", lambda: hook.write_text("#!/bin/sh\\ntouch /tmp/owned\\n"))
    attempt("git-config", lambda: open(".git/config", "a").write("[core]\\nfsmonitor = x\\n"))
"""
    result = await run_attack(activities, remote, attack)
    assert result.passed, result.output
    assert SECRET not in result.output
    checks = ("environ", *worker_files, "tcp", "write-outside", "write-system", "write-env", "home")
    checks += ("git-hook", "git-config")  # the worker's next git command there runs unsandboxed
    for check in checks:
        assert f"{check} BLOCKED" in result.output, result.output
    assert connections == []
    assert not outside.exists() and not Path("/usr/planted").exists()
    assert result.sandboxed and "sandbox: bubblewrap, no network" in result.output


@pytest.mark.parametrize(
    ("attack", "limit"),
    [
        ("def test_hog():\n    hog = bytearray(4 * 1024**3)\n", "memory"),
        ("def test_loop():\n    while True:\n        pass\n", "CPU time"),
        (
            "import sys\ndef test_print():\n    for _ in range(1024):\n"
            "        sys.stdout.write('x' * 1024 * 1024)\n",
            "output size",
        ),
    ],
    ids=["memory-hog", "endless-loop", "1GB-print"],  # the fork bomb: the test after next
)
async def test_each_limit_stops_its_attack_and_says_so(
    activities: RepoActivities, remote: RepoRef, attack: str, limit: str
) -> None:
    result = await run_attack(activities, remote, attack)
    assert not result.passed
    assert result.limit == limit, result.output[-2000:]
    assert f"the {limit} limit was hit" in result.output


async def test_a_sleeping_suite_is_stopped_by_wall_time(
    activities: RepoActivities, remote: RepoRef
) -> None:
    attack = "import time\ndef test_sleep():\n    time.sleep(3600)\n"
    inp = RunTestsInput(
        repo=remote,
        changes=[FileChange(path="tests/test_attack.py", content=attack)],
        test_command="python -m pytest -q",
        timeout_seconds=3,
    )
    result = await ActivityEnvironment().run(activities.run_tests, inp)
    assert result.timed_out and result.limit == "wall time"
    assert not result.passed


async def test_the_worker_keeps_serving_after_an_attack(
    activities: RepoActivities, remote: RepoRef
) -> None:
    bomb_suite = "import os\ndef test_bomb():\n    while 1: os.fork()\n"
    bomb = await run_attack(activities, remote, bomb_suite)
    assert bomb.limit == "processes"
    other = remote.model_copy(update={"workflow_id": "ticket-GOOD-2"})
    fine = await run_attack(activities, other, GOOD_TEST.replace("test_fine", "test_next"))
    assert fine.passed, fine.output
    assert "2 passed" in fine.output
    assert "reused from the cache" in fine.output  # the same environment, not rebuilt
    assert _free_port_still_usable()


def _free_port_still_usable() -> bool:
    """The worker's process can still open sockets (no descriptor or process exhaustion)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1] > 0


SETUP_PY = """
import os, pathlib, socket, urllib.request
from setuptools import setup

def attempt(action):
    try:
        action()
    except Exception:
        pass

for url in ("http://127.0.0.1:{port}/rest/api/3/issue/EVIL-1/comment",
            "http://169.254.169.254/latest/meta-data/"):
    attempt(lambda: urllib.request.urlopen(url, data=b"{{}}", timeout=5))
attempt(lambda: socket.create_connection(("127.0.0.1", {port}), timeout=3))
attempt(lambda: pathlib.Path({planted!r}).write_text("x"))
attempt(lambda: pathlib.Path(".git", "hooks", "post-checkout").write_text("#!/bin/sh\\nid\\n"))
setup(name="victim", version="0", py_modules=[])
"""


async def test_a_hostile_set_up_reaches_no_service_and_the_report_names_what_it_tried(
    tmp_path: Path, remote: RepoRef, listener: tuple[int, list[str]]
) -> None:
    port, connections = listener
    planted = tmp_path / "worker-planted.txt"
    repo = tmp_path / "hostile"
    git(tmp_path, "clone", "-q", str(tmp_path / "victim.git"), str(repo))
    (repo / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'
    )  # no [project] table: the metadata is setup.py's, so set-up builds the project
    (repo / "setup.py").write_text(SETUP_PY.format(port=port, planted=str(planted)))
    git(repo, "add", "setup.py", "pyproject.toml")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "build hook")
    git(repo, "push", "-q", "origin", "main")
    own = Environments(tmp_path / "environments", working_sandbox())
    activities = RepoActivities(Workspaces(tmp_path / "workspaces", None, "t", "t@e", own))
    result = await run_attack(activities, remote, GOOD_TEST)
    assert result.passed, result.output
    assert connections == [] and not planted.exists()
    assert f"[set-up tried to reach 127.0.0.1:{port}: refused]" in result.output, result.output
    assert "[set-up tried to reach 169.254.169.254:80: refused]" in result.output
    hooks = tmp_path / "workspaces"
    assert not list(hooks.rglob(".git/hooks/post-checkout")), "a set-up planted a git hook"
