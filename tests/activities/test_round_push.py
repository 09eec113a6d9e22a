"""A round's push racing a person's push, with real git against the GitHub emulator over HTTP:
the emulator lands their commit as the round's push begins, so that push is rejected."""

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from temporalio.testing import ActivityEnvironment

from activities.messages import RepoRef
from activities.repo import Workspaces
from activities.review.round_messages import CommitRoundInput
from activities.review.rounds import RoundActivities
from emulators.app import create_app
from emulators.github.webhooks import GitHubWebhooks
from graphs.models import ScriptedChatModel
from graphs.schemas import FileChange
from harness.processes import until
from harness.serving import serve
from tests.emulators.helpers import BOT, add_branch
from tests.emulators.test_github_pull_life import Receiver

BRANCH = "ticketsmith/DEMO-1-add-power"
OPS = "calc/operations.py"
REVISED = "def power(base: float, exponent: int) -> float:\n    return base**exponent\n"
DEADLINE_S = 30.0


@pytest.fixture
def receiver() -> Receiver:
    return Receiver()


@pytest.fixture
def emulator(tmp_path: Path, receiver: Receiver) -> Iterator[tuple[str, Path]]:
    """The emulator served over HTTP with a pull request open on BRANCH; (URL, bare repo)."""
    hooks = GitHubWebhooks(
        "http://hooks.test/webhooks/github", "s", transport=httpx.MockTransport(receiver)
    )
    app = create_app(tmp_path / "emulator", github_webhooks=hooks)
    bare = tmp_path / "emulator" / "git" / "demo" / "calc.git"
    with serve(app) as url:
        add_branch(bare, BRANCH, {OPS: "def power(a, b):\n    return a * b\n"})
        pull = {"title": "DEMO-1", "head": BRANCH, "base": "main"}
        created = httpx.post(f"{url}/api/v3/repos/demo/calc/pulls", json=pull, headers=BOT)
        assert created.status_code == 201, created.text
        yield url, bare


def head_of(bare: Path, ref: str = f"refs/heads/{BRANCH}") -> str:
    return bare_git(bare, "rev-parse", ref)


def bare_git(bare: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", f"--git-dir={bare}", *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def race(url: str, path: str, content: str) -> None:
    """Dave's commit lands on BRANCH when the next push to demo/calc begins."""
    body = {"owner": "demo", "repo": "calc", "branch": BRANCH, "author": "dave",
            "path": path, "content": content, "message": "Dave's notes"}  # fmt: skip
    assert httpx.post(f"{url}/_emulator/git/races", json=body).status_code == 201


def commit_input(url: str, base_sha: str) -> CommitRoundInput:
    repo = RepoRef(
        workflow_id="ticket-DEMO-1", repository="demo/calc", clone_url=f"{url}/demo/calc.git",
        branch=BRANCH, base_branch="main",
    )  # fmt: skip
    return CommitRoundInput(
        repo=repo, key="DEMO-1", files=[FileChange(path=OPS, content=REVISED)],
        message="DEMO-1: address review (round 1)", base_sha=base_sha,
    )  # fmt: skip


async def synchronized(receiver: Receiver, count: int) -> list[dict[str, Any]]:
    """The pull request's `synchronize` deliveries, once `count` arrived."""

    async def arrived() -> list[dict[str, Any]] | None:
        found = [e for e in receiver.events("pull_request") if e["action"] == "synchronize"]
        return found if len(found) >= count else None

    return await until(arrived, DEADLINE_S, f"{count} synchronize webhooks")


async def test_a_rejected_push_merges_the_persons_commit_and_pushes(
    emulator: tuple[str, Path], receiver: Receiver, tmp_path: Path
) -> None:
    url, bare = emulator
    start = head_of(bare)
    race(url, "NOTES.md", "Reviewed by Dave.\n")
    rounds = RoundActivities(
        ScriptedChatModel([]), Workspaces(tmp_path / "workspaces", None, "ticketsmith", "t@e")
    )
    result = await ActivityEnvironment().run(rounds.commit_round_changes, commit_input(url, start))

    daves = bare_git(bare, "log", "--format=%H", "--author=dave", BRANCH)
    assert result.changed and result.unresolved == []
    assert result.merged_heads == [daves] and len(result.own_shas) == 2
    assert head_of(bare) == result.sha == result.own_shas[-1]
    parents = bare_git(bare, "rev-list", "--parents", "-n1", BRANCH).split()[1:]
    assert parents == [result.own_shas[0], daves]  # their commit kept as it is, not rebased
    assert bare_git(bare, "show", f"{BRANCH}:NOTES.md") == "Reviewed by Dave."
    assert bare_git(bare, "show", f"{BRANCH}:{OPS}") + "\n" == REVISED
    pushes = await synchronized(receiver, 2)
    moves = [(e["sender"]["login"], e["before"], e["after"]) for e in pushes]
    assert moves == [("dave", start, daves), ("ticketsmith-bot", daves, result.sha)]


async def test_a_conflict_that_stays_stops_the_round_with_nothing_pushed(
    emulator: tuple[str, Path], receiver: Receiver, tmp_path: Path
) -> None:
    url, bare = emulator
    start = head_of(bare)
    race(url, OPS, "def power(a, b):\n    return pow(a, b)  # Dave's\n")
    model = ScriptedChatModel(["UNRESOLVABLE"])
    rounds = RoundActivities(model, Workspaces(tmp_path / "workspaces", None, "t", "t@e"))
    result = await ActivityEnvironment().run(rounds.commit_round_changes, commit_input(url, start))

    daves = bare_git(bare, "log", "--format=%H", "--author=dave", BRANCH)
    assert (result.sha, result.unresolved, result.merged_heads) == (None, [OPS], [])
    assert head_of(bare) == daves  # nothing of the round was pushed, nothing forced
    assert "pow(a, b)  # Dave's" in bare_git(bare, "show", f"{BRANCH}:{OPS}")
    assert model.calls == 1 and "resolve_conflict" in json.dumps(str(model.received[0][0].content))
