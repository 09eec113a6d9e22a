"""A revision that broke tests, tested again without the test files it rewrote: its code is
kept when that run is no worse, else the whole revision is discarded."""

from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.schemas import TicketContext
from harness.local_tester import LocalTester
from tests.graphs.test_convergence import WRONG_ADD
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


async def test_good_code_is_kept_without_the_test_file_that_broke_the_tests(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    original_tests = (tiny_repo / TESTS).read_text()
    broken_tests = NEW_TESTS.replace("from calc.ops", "from ops")  # collection fails

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        return file_answer(inputs["path"], broken_tests if inputs["path"] == TESTS else GOOD_OPS)

    model = team(handle)
    result = await implement_plan(
        model, tiny_repo, ticket, plan_for(OPS, TESTS), None, tester=tester, max_revisions=1
    )
    # the checkout, the whole revision (worse), then its code with the original tests
    assert [sorted(c.path for c in run) for run in tester.runs] == [[], [OPS, TESTS], [OPS]]
    assert {c.path: c.content for c in result.changes} == {OPS: GOOD_OPS}
    assert (tiny_repo / TESTS).read_text() == original_tests
    assert result.tests_passed and result.best_revision == 1 and result.qa_passed
    assert "revision 1: kept without tests/test_ops.py, with which it broke tests" in result.notes


async def test_code_that_breaks_the_tests_is_discarded_with_its_test_file(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        return file_answer(inputs["path"], NEW_TESTS if inputs["path"] == TESTS else WRONG_ADD)

    model = team(handle)
    result = await implement_plan(
        model, tiny_repo, ticket, plan_for(OPS, TESTS), None, tester=tester, max_revisions=1
    )
    assert [sorted(c.path for c in run) for run in tester.runs] == [[], [OPS, TESTS], [OPS]]
    assert result.changes == [] and result.best_revision == 0
    assert "revision 1: discarded, it broke tests that passed before" in result.notes
