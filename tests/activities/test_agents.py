"""Agent activities: heartbeat checkpoints, resuming after a crash, cancellation, model errors."""

import asyncio
import dataclasses
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import PrivateAttr
from temporalio.exceptions import ApplicationError
from temporalio.testing import ActivityEnvironment

from activities.agents import AgentActivities
from activities.messages import ImplementInput, QuestionsInput, RepoRef
from activities.repo import Workspaces
from graphs.implementation.journal import Progress
from graphs.models import ScriptedChatModel
from graphs.schemas import Analysis, Plan, PlannedFile, TicketContext
from llm.prompting import read_task

OPS = "calc/ops.py"
GOOD_OPS = (
    "def add(a: int, b: int) -> int:\n    return a + b\n\n\n"
    "def subtract(a: int, b: int) -> int:\n    return a - b\n"
)
TESTS = "tests/test_ops.py"
NEW_TESTS = (
    "from calc.ops import add, subtract\n\n\ndef test_add() -> None:\n    assert add(1, 2) == 3\n"
    "\n\ndef test_subtract() -> None:\n    assert subtract(5, 3) == 2\n"
)
PASS = json.dumps({"passed": True, "summary": "Good.", "fixes": []})


def git(cwd: Path, *args: str) -> None:
    """Run git quietly, failing the test when it fails."""
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def remote(tiny_repo: Path, tmp_path: Path) -> RepoRef:
    """The tiny repository as a bare git remote, and a ticket branch ref on it."""
    git(tiny_repo, "init", "-q", "-b", "main")
    git(tiny_repo, "-c", "user.name=t", "-c", "user.email=t@e", "add", "-A")
    git(tiny_repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "init")
    bare = tmp_path / "remote.git"
    git(tmp_path, "clone", "-q", "--bare", str(tiny_repo), str(bare))
    return RepoRef(
        workflow_id="ticket-CALC-7",
        repository="demo/calc",
        clone_url=str(bare),
        branch="ticketsmith/CALC-7-subtract",
        base_branch="main",
    )


def activities(model: Any, tmp_path: Path) -> AgentActivities:
    """The agent activities with local workspaces."""
    return AgentActivities(model, Workspaces(tmp_path / "workspaces", None, "t", "t@e"))


def implement_input(remote: RepoRef, ticket: TicketContext) -> ImplementInput:
    """Implement subtract and its test."""
    files = [PlannedFile(path=p, action="modify", purpose=f"Change {p}.") for p in (OPS, TESTS)]
    plan = Plan(version=1, summary="Add subtract.", files=files, test_plan=[], risks=[],
                markdown="# Plan")  # fmt: skip
    return ImplementInput(repo=remote, ticket=ticket, plan=plan)


def team(review: Any) -> ScriptedChatModel:
    """Workers write the files; the review answer is `review` (a string, or a callable)."""

    def answer(messages: list[BaseMessage]) -> str:
        task, inputs = read_task(messages)
        if task == "review":
            return review() if callable(review) else review
        content = GOOD_OPS if inputs["path"] == OPS else NEW_TESTS
        return f"{inputs['path']}\n```python\n{content}```"

    return ScriptedChatModel([answer] * 10)


async def test_a_retried_attempt_resumes_from_the_heartbeated_steps(
    remote: RepoRef, ticket: TicketContext, tmp_path: Path
) -> None:
    def crash() -> str:
        raise ConnectionError("the worker died")

    first = ActivityEnvironment()
    beats: list[Any] = []
    first.on_heartbeat = lambda *details: beats.append(details)
    model = team(crash)
    with pytest.raises(ConnectionError):
        await first.run(
            activities(model, tmp_path).implement_changes, implement_input(remote, ticket)
        )
    saved = Progress.model_validate(beats[-1][0])
    # the checkout's own test run, two workers and the revision's test run (read from junit XML)
    assert saved.steps == 4 and saved.tests[-1].report.passed
    assert saved.tests[-1].report.passed_tests == [
        "tests/test_ops.py::test_add",
        "tests/test_ops.py::test_subtract",
    ]

    second = ActivityEnvironment()
    second.info = dataclasses.replace(second.info, heartbeat_details=[beats[-1][0]], attempt=2)
    later: list[Any] = []
    second.on_heartbeat = lambda *details: later.append(details)
    resumed = team(PASS)
    result = await second.run(
        activities(resumed, tmp_path).implement_changes, implement_input(remote, ticket)
    )
    assert [read_task(m)[0] for m in resumed.received] == ["review"]
    assert result.tests_passed and result.qa_passed and result.revisions == 1
    assert {c.path for c in result.changes} == {OPS, TESTS}
    assert Progress.model_validate(later[-1][0]).steps == 5


class StuckModel(ScriptedChatModel):
    """A model whose calls never return."""

    _started: asyncio.Event = PrivateAttr(default_factory=asyncio.Event)

    async def _agenerate(
        self, messages: list[BaseMessage], *args: Any, **kwargs: Any
    ) -> ChatResult:
        self._started.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


async def test_a_cancelled_implementation_stops_at_once(
    remote: RepoRef, ticket: TicketContext, tmp_path: Path
) -> None:
    model = StuckModel(answers=[])
    env = ActivityEnvironment()
    run = asyncio.ensure_future(
        env.run(activities(model, tmp_path).implement_changes, implement_input(remote, ticket))
    )
    await asyncio.wait_for(model._started.wait(), timeout=20)
    env.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(run, timeout=5)


async def test_unusable_model_answers_fail_without_retries(
    tmp_path: Path, ticket: TicketContext, analysis: Analysis
) -> None:
    model = ScriptedChatModel(["no idea", "still none", "nothing"])
    env = ActivityEnvironment()
    with pytest.raises(ApplicationError) as caught:
        await env.run(
            activities(model, tmp_path).generate_questions,
            QuestionsInput(ticket=ticket, analysis=analysis),
        )
    assert caught.value.type == "ModelAnswerError" and caught.value.non_retryable
    assert "QuestionsAnswer: no usable answer after 3 attempts" in caught.value.message
    assert caught.value.details == ("nothing",)


async def test_the_worker_setting_caps_the_revisions(
    remote: RepoRef, ticket: TicketContext, tmp_path: Path
) -> None:
    failing = json.dumps({"passed": False, "summary": "Not yet.", "fixes": []})
    capped = AgentActivities(
        team(failing), Workspaces(tmp_path / "workspaces", None, "t", "t@e"), max_revisions=1
    )
    result = await ActivityEnvironment().run(
        capped.implement_changes, implement_input(remote, ticket)
    )
    assert result.revisions == 1 and not result.qa_passed
    assert "after 1 revisions (the limit)" in result.qa_verdict
