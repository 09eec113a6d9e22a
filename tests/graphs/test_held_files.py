"""The gate: a file that does not compile or import is held back while the rest is tested."""

from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.schemas import TicketContext
from harness.local_tester import LocalTester
from tests.graphs.test_convergence import BROKEN_OPS, worker_prompts
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
)


async def test_a_file_that_does_not_compile_is_held_back_and_goes_back_to_its_worker(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        return file_answer(OPS, BROKEN_OPS if inputs["revision"] == 1 else GOOD_OPS)

    model = team(handle)
    result = await implement_plan(
        model, tiny_repo, ticket, plan_for(OPS, TESTS), None, tester=tester
    )
    assert result.tests_passed and result.revisions == 2
    # revision 1 ran without the file that did not compile; revision 2 with both
    assert [sorted(c.path for c in run) for run in tester.runs] == [[], [TESTS], [OPS, TESTS]]
    assert "revision 1: tested with the best version of calc/ops.py (SyntaxError" in result.notes
    second = worker_prompts(model, OPS)[1]
    assert "could not be used (SyntaxError" in second and "(line 5: def subtract" in second
    # without subtract the new tests broke test_add, in the same module: a step back
    assert "Revision 1 was discarded: it broke tests that passed before" in second


async def test_a_package_init_that_does_not_import_is_held_back_while_the_code_is_tested(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q", check_imports=True)
    init = "calc/__init__.py"
    reviews = iter([verdict(False, summary="subtract is wrong"), verdict(True)])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return next(reviews)
        if inputs["path"] == init:  # the same broken import, every time it is asked
            return file_answer(init, "from calc.ops.subtract import subtract\n")
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        return file_answer(OPS, BAD_OPS if inputs["revision"] == 1 else GOOD_OPS)

    model = team(handle)
    result = await implement_plan(
        model, tiny_repo, ticket, plan_for(init, OPS, TESTS), None, tester=tester
    )
    assert result.tests_passed, result.notes
    assert init not in {c.path for c in result.changes}  # the checkout's own version stays
    assert "revision 1: tested with the best version of calc/__init__.py (ModuleNotFoundError" in (
        result.notes
    )
    assert "calc/ops.py (" not in result.notes  # the error was blamed on the file raising it
    fix = worker_prompts(model, OPS)[1]
    assert "FAILED tests/test_ops.py::test_subtract" in fix and "could not be used" not in fix
