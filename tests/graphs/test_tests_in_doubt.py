"""When the code's worker stands by its code and the tests written for the change still fail,
the next revision goes to those tests."""

from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.supervisor import TESTS_IN_DOUBT
from graphs.schemas import TicketContext
from harness.local_tester import LocalTester
from tests.graphs.test_convergence import worker_prompts
from tests.graphs.test_implementation_loop import (
    GOOD_OPS,
    NEW_TESTS,
    OPS,
    TESTS,
    Reply,
    file_answer,
    plan_for,
    team,
    verdict,
)

WRONG_TESTS = NEW_TESTS.replace("subtract(5, 3) == 2", "subtract(5, 3) == 3")


async def test_failing_new_tests_are_checked_when_the_code_stands_still(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    tests = iter([WRONG_TESTS, NEW_TESTS])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(inputs["tests"]["passed"], (OPS, "Make the tests pass."))
        if inputs["path"] == TESTS:
            return file_answer(TESTS, next(tests))
        return file_answer(OPS, GOOD_OPS)  # the right code, every time

    model = team(handle)
    result = await implement_plan(
        model, tiny_repo, ticket, plan_for(OPS, TESTS), None, tester=tester, max_revisions=6
    )
    test_prompts = worker_prompts(model, TESTS)
    assert len(test_prompts) == 2, "the failing test file was not asked again"
    assert TESTS_IN_DOUBT not in test_prompts[0] and TESTS_IN_DOUBT in test_prompts[1]
    assert "subtract(5, 3) == 3" in test_prompts[1]  # shown the failing test
    assert result.tests_passed is True and result.revisions == 3
    assert {c.path: c.content for c in result.changes}[TESTS] == NEW_TESTS


async def test_the_repositorys_own_failing_tests_are_never_in_doubt(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    broken_add = GOOD_OPS.replace("return a + b", "return a + b + 1")  # breaks test_add

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(False, (OPS, "Fix add."))
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        return file_answer(OPS, broken_add)

    model = team(handle)
    result = await implement_plan(
        model, tiny_repo, ticket, plan_for(OPS, TESTS), None, tester=tester, max_revisions=6
    )
    assert all(TESTS_IN_DOUBT not in p for p in worker_prompts(model, TESTS))
    assert result.changes == []  # every revision broke test_add and was discarded
