"""`starter.py mvp` on the embedded stack with a scripted model: a runnable todo-list project
in output/, whose own tests pass after one QA revision, pushed to the forge as a repository."""

import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from config import ROOT
from embedded.stack import Stack, child_env
from harness.model_server import FakeModelServer
from harness.stacks import stack_settings
from tests.e2e.stacks import running
from tests.support.fake_mvp import TESTS, TODO_FIXED, MvpBrain

pytestmark = pytest.mark.e2e
PROMPT = "Build an MVP for a todo-list app"
SLUG = "build-an-mvp-for-a-todo-list-app"


@pytest.fixture(scope="module")
def model_server() -> Iterator[FakeModelServer]:
    with FakeModelServer(MvpBrain()) as server:
        yield server


@pytest.fixture(scope="module")
async def model_stack(
    tmp_path_factory: pytest.TempPathFactory, model_server: FakeModelServer
) -> AsyncIterator[Stack]:
    """The stack whose worker's model is the fake server (through the OpenAI client)."""
    before = os.environ.get("OPENAI_BASE_URL")
    os.environ["OPENAI_BASE_URL"] = model_server.base_url
    settings = stack_settings(
        tmp_path_factory.mktemp("mvp-stack"), model_provider="openai", openai_model="fake"
    )
    try:
        async with running(settings) as started:
            yield started
    finally:
        if before is None:
            os.environ.pop("OPENAI_BASE_URL", None)
        else:
            os.environ["OPENAI_BASE_URL"] = before


async def test_mvp_writes_a_tested_project_and_pushes_it(
    model_stack: Stack, tmp_path: Path, model_server: FakeModelServer
) -> None:
    done = subprocess.run(
        [sys.executable, "starter.py", "mvp", PROMPT, "--output", str(tmp_path / "output")],
        cwd=ROOT,
        env=child_env(model_stack.settings),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "revision 1: 2 files" in out and "tests failed" in out, out
    assert "revision 2: 2 files" in out and "tests passed" in out, out
    assert "QA verdict: Passed at revision 2" in out, out
    assert "Tests (`python -m pytest -q`): passed" in out, out
    assert f"/ticketsmith-bot/{SLUG}" in out and "Model tokens:" in out and "Time:" in out
    assert model_server.count("review") == 2

    project = tmp_path / "output" / SLUG
    assert (project / "todo.py").read_text() == TODO_FIXED
    assert (project / "test_todo.py").read_text() == TESTS
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert tests.returncode == 0, tests.stdout
    assert "2 passed" in tests.stdout

    clone = tmp_path / "clone"
    url = f"{model_stack.settings.git_base_url}/ticketsmith-bot/{SLUG}.git"
    subprocess.run(["git", "clone", "--quiet", url, str(clone)], check=True, timeout=60)
    assert (clone / "todo.py").read_text() == TODO_FIXED
    assert (clone / "README.md").exists()
    log = subprocess.run(
        ["git", "-C", str(clone), "log", "--format=%s"], capture_output=True, text=True, check=True
    )
    assert len(log.stdout.splitlines()) == 3  # the repository's first commit, then 2 revisions


async def test_a_request_that_is_not_development_ends_at_once(model_stack: Stack) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "starter.py",
            "mvp",
            "Write an essay about tea",
            "--output",
            "/nonexistent",
        ],
        cwd=ROOT,
        env=child_env(model_stack.settings),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Not a development request: This asks for an essay, not for software." in done.stdout
