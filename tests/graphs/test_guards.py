"""Errors the change must keep or add beyond the criteria's own tests: a criterion saying an
error is still raised (its test must pass on the original code) and an answer stating one."""

from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.criteria.guards import HOLDS, MAX_GUARDS, guard_checks
from graphs.implementation.criteria.ticket import criteria_path
from graphs.schemas import Requirements
from harness.local_tester import LocalTester
from tests.graphs.conftest import write_tree
from tests.graphs.test_example_tests import CORE, FIXED, PLAN, REPO, TICKET
from tests.graphs.test_implementation_loop import Reply, file_answer, team, verdict
from tests.graphs.test_written_tests import broken_criteria_tests

DEPTHS = (
    '- `parse_depth("7fm")` returns `42`.\n'
    "- Unknown units still raise ValueError.\n"
    "- A negative depth raises ValueError."
)
UPPER = "Upper-case `FM` is an error like any other unknown unit."
STILL = "A negative step still raises ValueError."
ZERO = "A step of zero is an error too."


def test_a_still_raised_error_and_an_error_the_answers_state_are_guarded() -> None:
    guards = guard_checks(DEPTHS, [f"The unit is a lower-case `fm`. {UPPER}"])
    assert list(guards.stated) == ["Unknown units still raise ValueError.", UPPER]
    assert guards.holding == {"Unknown units still raise ValueError."}
    assert all(s.errors == {"ValueError"} for s in guards.stated.values())


def test_an_answer_saying_only_error_needs_the_one_error_the_ticket_names() -> None:
    two = DEPTHS + "\n- A missing file raises FileNotFoundError."
    assert UPPER not in guard_checks(two, [UPPER]).stated
    named = "A blank string raises TypeError."
    assert guard_checks(two, [named]).stated[named].errors == {"TypeError"}


def test_an_answer_restating_a_criterion_and_guards_past_the_cap_are_not_asked() -> None:
    assert guard_checks(DEPTHS, ["A negative depth raises ValueError too."]).holding
    assert list(guard_checks(DEPTHS, ["A negative depth raises ValueError too."]).stated) == [
        "Unknown units still raise ValueError."
    ]
    many = [f"Unit number {n} is an error." for n in range(5)]
    assert len(guard_checks(DEPTHS, many).stated) == MAX_GUARDS


async def test_a_guard_failing_on_the_original_is_left_out_and_an_answers_error_is_kept(
    tmp_path: Path,
) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    criteria = f"- `thinned([1, 2, 3], 2)` returns `[1, 3]`.\n- {STILL}"
    ticket = TICKET.model_copy(update={"acceptance_criteria": criteria})
    answers = Requirements(requirements=[], acceptance_criteria=[], answers=[ZERO])
    asked: list[str] = []
    raising = "import pytest\n\nfrom trail.points import thinned\n\n\ndef test_it():\n"

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "criteria_tests":
            prompt = messages[-1].text
            asked.append(prompt)
            step = "-1" if STILL in prompt else "0"  # the buggy code raises for 0, not -1
            body = f"    with pytest.raises(ValueError):\n        thinned([1], {step})\n"
            return file_answer(inputs["path"], raising + body)
        return verdict(True) if task == "review" else file_answer(CORE, FIXED)

    result = await implement_plan(
        team(handle), repo, ticket, PLAN, answers, tester=tester, max_revisions=1,
        example_tests=True,
    )  # fmt: skip
    assert len(asked) == 2 and HOLDS in asked[0] and HOLDS not in asked[1]
    module = {c.path: c.content for c in result.changes}[criteria_path(ticket.key)]
    assert "thinned([1], 0)" in module and ZERO in module
    assert "thinned([1], -1)" not in module and STILL not in module
    assert "test_criterion_1 left out: it fails on the original code" in result.notes


async def test_a_broken_test_of_an_answers_error_is_left_out_and_the_others_stay(
    tmp_path: Path,
) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    zero = "A step of zero raises ValueError."  # the ticket names no error of its own
    answers = Requirements(requirements=[], acceptance_criteria=[], answers=[zero])

    example = "- `thinned([1, 2, 3], 2)` returns `[1, 3]`."
    ticket = TICKET.model_copy(update={"acceptance_criteria": example})
    result = await implement_plan(
        team(broken_criteria_tests), repo, ticket, PLAN, answers, tester=tester, max_revisions=1,
        example_tests=True,
    )  # fmt: skip
    module = {c.path: c.content for c in result.changes}[criteria_path(ticket.key)]
    assert "thin([1], 0)" not in module and "test_example_1" in module
    assert "test_criterion_1 left out: it is broken" in result.notes, result.notes
