"""The repository's own tests stay as they are unless the ticket names their file: the plan
adds to a test file instead of rewriting it, and the loop keeps the tests an answer rewrote."""

import json
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.worker.kept_tests import with_existing_tests
from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.planning.existing_tests import names_test_file
from graphs.schemas import Analysis, Requirements, TicketContext
from harness.local_tester import LocalTester
from tests.graphs.test_implementation_loop import (
    GOOD_OPS,
    OPS,
    TESTS,
    Reply,
    file_answer,
    plan_for,
    team,
    verdict,
)

ORIGINAL = "from calc.ops import add\n\n\ndef test_add() -> None:\n    assert add(1, 2) == 3\n"
# A small model's whole new file: the existing test changed on the way, a new one added.
REWRITTEN = (
    "from calc.ops import add\nfrom calc.ops import subtract\n\n\n"
    "def test_add() -> None:\n    assert add(1, 2) == 4\n\n\n"
    "LIMIT = 10\n\n\n"
    "def test_subtract() -> None:\n    assert subtract(5, 3) == 2\n"
)


def plan_answer(*files: tuple[str, str]) -> str:
    return json.dumps(
        {
            "summary": "Add subtract and test it.",
            "files": [{"path": p, "action": a, "purpose": "Test subtract."} for p, a in files],
            "test_plan": ["Run the tests."],
            "risks": [],
        }
    )


async def test_a_plan_adds_to_the_repository_test_file_instead_of_rewriting_it(
    ticket: TicketContext, analysis: Analysis
) -> None:
    answer = plan_answer((OPS, "modify"), (TESTS, "modify"))
    plan = await create_plan(ScriptedChatModel([answer]), ticket, analysis, None, [], 1)

    assert [(f.path, f.action) for f in plan.files] == [(OPS, "modify"), (TESTS, "modify")]
    assert plan.kept_tests == [TESTS]
    assert plan.files[1].purpose == (
        "Test subtract (the change's tests are added after the existing ones, which stay as "
        "they are)"
    )
    assert plan.risks == [
        "`tests/test_ops.py` keeps the repository's tests as they are; the change's tests are "
        "added after them: the ticket does not name the file."
    ]
    assert "keeps the repository's tests as they are" in plan.markdown


async def test_a_planned_deletion_of_a_test_file_is_dropped_and_new_test_files_stay(
    ticket: TicketContext, analysis: Analysis
) -> None:
    answer = plan_answer((OPS, "modify"), (TESTS, "delete"), ("tests/test_subtract.py", "create"))
    plan = await create_plan(ScriptedChatModel([answer]), ticket, analysis, None, [], 1)

    assert [f.path for f in plan.files] == [OPS, "tests/test_subtract.py"]
    assert plan.kept_tests == []
    assert plan.risks == [
        "Dropped deleting `tests/test_ops.py`: the ticket does not name this test file."
    ]


async def test_a_ticket_or_an_answer_naming_the_test_file_is_followed(
    ticket: TicketContext, analysis: Analysis
) -> None:
    answer = plan_answer((OPS, "modify"), (TESTS, "modify"))
    asking = ticket.model_copy(update={"description": "Rename add; update tests/test_ops.py."})
    plan = await create_plan(ScriptedChatModel([answer]), asking, analysis, None, [], 1)
    assert plan.kept_tests == [] and plan.files[1].purpose == "Test subtract."

    requirements = Requirements(
        requirements=["subtract"], acceptance_criteria=[], answers=["Yes, test_ops.py too."]
    )
    plan = await create_plan(ScriptedChatModel([answer]), ticket, analysis, requirements, [], 1)
    assert plan.kept_tests == [] and plan.risks == []


def test_only_naming_the_file_lets_a_plan_change_the_tests() -> None:
    for text in ("Rewrite `tests/test_ops.py` with fixtures.", "Keep test_ops.py in step."):
        assert names_test_file(text, TESTS), text
    for text in (
        "The old tests must be updated for the new API.",  # which tests is not said
        "Write tests for subtract; see mytest_ops.py.",
        "The existing tests must not change.",
    ):
        assert not names_test_file(text, TESTS), text


def test_an_answer_that_rewrote_an_existing_test_gets_it_back_with_its_additions() -> None:
    kept, restored = with_existing_tests(ORIGINAL, REWRITTEN)

    assert restored == ["test_add"]
    assert kept == ORIGINAL + (
        "\n\nfrom calc.ops import subtract\n\n\nLIMIT = 10\n\n\n"
        "def test_subtract() -> None:\n    assert subtract(5, 3) == 2\n"
    )
    appended = ORIGINAL + "\n\ndef test_subtract() -> None:\n    assert add(2, 3) == 5\n"
    assert with_existing_tests(ORIGINAL, appended) == (appended, [])
    assert with_existing_tests(ORIGINAL, "def broken(:\n") == ("def broken(:\n", [])


async def test_the_loop_keeps_the_tests_of_a_file_the_plan_adds_to(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        return file_answer(inputs["path"], REWRITTEN if inputs["path"] == TESTS else GOOD_OPS)

    plan = plan_for(OPS, TESTS).model_copy(update={"kept_tests": [TESTS]})
    result = await implement_plan(
        team(handle), tiny_repo, ticket, plan, None, tester=tester, max_revisions=1
    )

    written = {c.path: c.content for c in result.changes}
    assert written[TESTS].startswith(ORIGINAL) and "def test_subtract" in written[TESTS]
    assert result.tests_passed and result.best_revision == 1
    assert f"{TESTS}: added to (its tests `test_add` kept as they were)" in result.notes
