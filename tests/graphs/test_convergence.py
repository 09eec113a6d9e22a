"""Each step of the converging loop with a scripted model: gate, failures, best."""

from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.schemas import TicketContext
from harness.local_tester import LocalTester
from tests.graphs.test_implementation_loop import (
    ADD,
    BAD_OPS,
    GOOD_OPS,
    NEW_TESTS,
    OPS,
    TESTS,
    Reply,
    file_answer,
    plan_for,
    tasks_of,
    team,
    verdict,
)

BROKEN_OPS = ADD + "\n\ndef subtract(a: int, b: int) -> int\n    return a - b\n"
WRONG_ADD = GOOD_OPS.replace("return a + b", "return a * b")


def worker_prompts(model: Any, path: str) -> list[str]:
    """The prompt text of every worker call for one file, in order."""
    from llm.prompting import read_task

    prompts = []
    for messages in model.received:
        task, inputs = read_task(messages)
        if task == "implement_file" and inputs["path"] == path:
            prompts.append(messages[-1].text)
    return prompts


async def test_each_worker_gets_the_failing_tests_of_its_file(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    reviews = iter([verdict(False, summary="subtract is wrong"), verdict(True)])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return next(reviews)
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        return file_answer(OPS, BAD_OPS if inputs["revision"] == 1 else GOOD_OPS)

    model = team(handle)
    result = await implement_plan(
        model, tiny_repo, ticket, plan_for(OPS, TESTS), None, tester=tester
    )
    assert result.tests_passed and result.revisions == 2
    first = worker_prompts(model, OPS)[0]
    assert "tests/test_ops.py (lines 1-" in first and "def test_add" in first  # its tests
    fix = worker_prompts(model, OPS)[1]
    assert "FAILED tests/test_ops.py::test_subtract" in fix
    assert "def test_subtract() -> None:\n    assert subtract(5, 3) == 2" in fix  # its source
    assert "assert 8 == 2" in fix  # its error
    assert "test_add" not in fix.split("failing tests that concern this file")[1]  # it passed
    assert len(worker_prompts(model, TESTS)) == 1  # QA named no test file: it is left alone


async def test_a_revision_that_breaks_a_passing_test_is_discarded(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    reviews = iter([verdict(False, (OPS, "Add a docstring to subtract."))] * 3)

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return next(reviews)
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        return file_answer(OPS, GOOD_OPS if inputs["revision"] == 1 else WRONG_ADD)

    model = team(handle)
    plan = plan_for(OPS, TESTS)
    result = await implement_plan(
        model, tiny_repo, ticket, plan, None, tester=tester, max_revisions=2
    )
    assert len(tester.runs) == 3  # the checkout, revision 1, revision 2
    assert {c.path: c.content for c in result.changes} == {OPS: GOOD_OPS, TESTS: NEW_TESTS}
    assert result.tests_passed is True and "2 passed" in result.test_output
    assert "revision 2: discarded, it broke tests that passed before: " in result.notes
    assert "tests/test_ops.py::test_add" in result.notes
    assert tasks_of(model).count("review") == 1  # the discarded revision was not reviewed


async def test_the_discarded_revision_is_not_built_upon(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    reviews = iter([verdict(False, (OPS, "Add a docstring.")), verdict(True)])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return next(reviews)
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        return file_answer(
            OPS, [GOOD_OPS, WRONG_ADD, GOOD_OPS + "# done\n"][inputs["revision"] - 1]
        )

    model = team(handle)
    result = await implement_plan(
        model, tiny_repo, ticket, plan_for(OPS, TESTS), None, tester=tester
    )
    third = worker_prompts(model, OPS)[2]
    assert "Revision 2 was discarded: it broke tests that passed before" in third
    assert "return a + b" in third and "return a * b" not in third  # shown the best version
    broke = third.split("How the discarded version broke them")[1]
    assert "FAILED tests/test_ops.py::test_add" in broke  # the broken test, by name,
    assert "assert add(1, 2) == 3" in broke and "assert 2 == 3" in broke  # source and error
    assert result.revisions == 3 and result.tests_passed and result.qa_passed


async def test_a_run_that_never_passes_says_exactly_what_fails(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    from graphs.schemas import Requirements
    from workflows.ticket.texts import criteria_lines, pull_request_body

    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    ticket = ticket.model_copy(update={"acceptance_criteria": None})  # the refined ones count
    requirements = Requirements(
        requirements=["subtract"],
        acceptance_criteria=["`subtract(5, 3)` returns `2`.", "The CLI prints the result."],
    )

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(False, (OPS, "Fix subtract."))
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        return file_answer(OPS, BAD_OPS + f"# try {inputs['revision']}\n")

    model = team(handle)
    plan = plan_for(OPS, TESTS)
    result = await implement_plan(
        model, tiny_repo, ticket, plan, requirements, tester=tester, max_revisions=2
    )
    assert result.tests_passed is False
    assert (result.own_tests_passed, result.own_tests_failed) == (1, 0)  # test_add was there
    assert (result.new_tests_passed, result.new_tests_failed) == (0, 1)
    assert result.failing_tests == ["tests/test_ops.py::test_subtract: assert 8 == 2"]
    covered, uncovered = result.criteria
    assert (covered.test, covered.passed) == ("tests/test_ops.py::test_subtract", False)
    assert uncovered.test is None
    body = pull_request_body(ticket, plan, result, "The test command failed (exit code 1).")
    assert "the repository's own tests 1 passed, 0 failed; tests written for this change" in body
    assert "- `tests/test_ops.py::test_subtract: assert 8 == 2`" in body
    assert criteria_lines(result) == [
        "- `subtract(5, 3)` returns `2`. (covered by `tests/test_ops.py::test_subtract`,"
        " which fails)",
        "- The CLI prints the result. (no test covers it)",
    ]


async def test_workers_read_the_criteria_and_the_reporters_answers_as_written(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    from graphs.schemas import Requirements

    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    requirements = Requirements(
        requirements=[],
        acceptance_criteria=["subtract(5, 3) is 2"],
        answers=["Name it SUBTRACT_SIGN = -1 in the module."],
    )

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        return verdict(True) if task == "review" else file_answer(OPS, GOOD_OPS)

    model = team(handle)
    result = await implement_plan(
        model, tiny_repo, ticket, plan_for(OPS), requirements, tester=tester
    )
    assert result.tests_passed
    prompt = worker_prompts(model, OPS)[0]
    assert "Acceptance criteria (they decide where the plan" in prompt
    assert "subtract(5, 3) == 2" in prompt  # the ticket's, as written
    # the reporter's answers as written: the refinement may have dropped such details
    answers = "about the ticket (they decide too):\nName it SUBTRACT_SIGN = -1 in the module."
    assert answers in prompt
