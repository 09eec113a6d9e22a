"""A worker asked again when it echoes the task, leaves its file unchanged (also after a
discard) or repeats a version already tried; its answer bounded by the repository's file."""

import json
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import Field

from graphs.implementation import implement_plan
from graphs.implementation.worker.answer import MIN_ANSWER_TOKENS
from graphs.implementation.worker.retries import REPEATED, UNCHANGED
from graphs.models import ScriptedChatModel
from graphs.schemas import TicketContext
from harness.local_tester import LocalTester
from llm.prompting import read_task
from tests.graphs.test_convergence import worker_prompts
from tests.graphs.test_implementation_loop import (
    BAD_OPS,
    GOOD_OPS,
    NEW_TESTS,
    OPS,
    TESTS,
    Reply,
    file_answer,
    plan_for,
    team,
    verdict,
    without_contracts,
)


async def test_a_worker_that_repeats_the_task_is_asked_again_for_the_file(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    asked: list[int] = []

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        asked.append(len(messages))
        if len(asked) == 1:  # the inputs block, as the small model echoed it
            return f"{OPS}\n```json\n{json.dumps(inputs, indent=1)}\n```"
        return file_answer(OPS, GOOD_OPS)

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None, tester=tester)
    assert {c.path: c.content for c in result.changes} == {OPS: GOOD_OPS}
    assert result.tests_passed and result.revisions == 1
    assert asked[1] == asked[0] + 2  # asked again in the same step: its answer and the reason
    again = model.received[1][-1].text
    assert "That is the task's JSON, not the file" in again and OPS in again


async def test_a_version_tried_before_is_asked_again_warmer(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    # Temperature zero and the same prompt: the failing version comes back as it was.
    versions = iter([BAD_OPS, BAD_OPS, GOOD_OPS])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        return file_answer(OPS, next(versions))

    model = team(handle)
    result = await implement_plan(
        model, tiny_repo, ticket, plan_for(OPS, TESTS), None, tester=tester
    )
    prompts = worker_prompts(model, OPS)
    assert len(prompts) == 3  # revision 1, its repeat, the warmer try
    assert REPEATED not in prompts[1] and REPEATED in prompts[2]  # told, not just warmer
    assert {c.path: c.content for c in result.changes}[OPS] == GOOD_OPS
    assert result.tests_passed and result.revisions == 2


async def test_a_first_answer_that_leaves_the_file_unchanged_is_asked_again_warmer(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    original = (tiny_repo / OPS).read_text()
    versions = iter([original, GOOD_OPS])  # the file as it is, then the change

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        return file_answer(OPS, next(versions))

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None, tester=tester)
    prompts = worker_prompts(model, OPS)
    assert len(prompts) == 2, "the unchanged answer was not asked for again"
    told = UNCHANGED.format(purpose=f"Change {OPS}.")
    assert told not in prompts[0] and told in prompts[1]
    assert {c.path: c.content for c in result.changes} == {OPS: GOOD_OPS}
    assert result.tests_passed and result.revisions == 1


async def test_a_revision_giving_back_the_checkout_after_a_discard_is_tried_again(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    original = (tiny_repo / OPS).read_text()
    broken = "def add(a: int, b: int) -> int:\n    return a * b\n"  # breaks test_add
    versions = iter([broken, original, original, GOOD_OPS])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        return file_answer(OPS, next(versions))

    model = team(handle)
    result = await implement_plan(
        model,
        tiny_repo,
        ticket,
        without_contracts(OPS, TESTS),
        None,
        tester=tester,
        max_revisions=5,
    )
    assert "discarded" in result.notes and result.revisions == 3, result.notes
    told = UNCHANGED.format(purpose=f"Change {OPS}.")
    prompts = worker_prompts(model, OPS)
    assert len(prompts) == 4 and told in prompts[2], "the unchanged answer was not told why"
    assert {c.path: c.content for c in result.changes}[OPS] == GOOD_OPS
    assert result.tests_passed is True


class BoundedTeam(ScriptedChatModel):
    """A scripted model with an answer bound, recording the bound of every call."""

    max_tokens: int | None = None
    bounds: list[int | None] = Field(default_factory=list)

    def _answer(self, messages: list[BaseMessage]) -> ChatResult:
        self.bounds.append(self.max_tokens)
        return super()._answer(messages)


async def test_an_answer_is_bounded_by_the_repositorys_file_not_a_looping_version(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    looping = "def test_sub():\n    assert subtract(5, 3) == 2\n" * 60 + "def broken(:\n"
    versions = iter([looping, GOOD_OPS])

    def answer(messages: list[BaseMessage]) -> str:
        task, inputs = read_task(messages)
        return verdict(True) if task == "review" else file_answer(OPS, next(versions))

    model = BoundedTeam([answer] * 5)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None, max_revisions=2)
    assert "revision 2: calc/ops.py: rewritten" in result.notes  # the syntax error went back
    first, second = model.bounds[:2]
    assert first == second == MIN_ANSWER_TOKENS, model.bounds  # the small original, both times
