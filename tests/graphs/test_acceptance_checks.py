"""Acceptance tests from checks the model lists as data, validated without reading English."""

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.criteria.checks import (
    Check,
    CheckError,
    Checks,
    Where,
    check_test,
    check_tests,
)
from graphs.implementation.criteria.ticket import criteria_path
from graphs.implementation.finish.coverage import written_for
from graphs.schemas import Contract, Implementation, Plan, PlannedFile, TicketContext
from harness.local_tester import LocalTester
from tests.graphs.conftest import write_tree
from tests.graphs.test_implementation_loop import Reply, file_answer, team, verdict

BEDS = "garden/beds.py"
BUGGY = (
    "class Bed:\n"
    "    def __init__(self, width):\n"
    "        self.width = width\n\n\n"
    "def plants_per_row(width):\n"
    "    return width // 30\n\n\n"
    "def parse(text):\n"
    "    return float(text)\n"
)
FIXED = BUGGY.replace("width // 30\n", "width // 30 + 1\n")
REPO = {
    "garden/__init__.py": "",
    BEDS: BUGGY,
    "tests/test_beds.py": "from garden.beds import parse\n\n\n"
    "def test_parse():\n    assert parse('1.5') == 1.5\n",
}
TICKET = TicketContext(
    key="BED-2",
    summary="Rows get one plant too few",
    description="A 60 cm row shows room for 2 plants; there is room for 3.",
    acceptance_criteria=(
        "- A 60 cm row holds 3 plants and a 90 cm row 4.\n- Bad text is still refused."
    ),
)
CONTRACT = Contract(path=BEDS, signature="def spacing_cm(kind) -> int", behaviour="cm")
PLAN = Plan(
    version=1,
    summary="Count the first plant.",
    files=[PlannedFile(path=BEDS, action="modify", purpose="Count the plant at the row's start.")],
    test_plan=["python -m pytest -q"],
    risks=[],
    markdown="# Plan",
    contracts=[CONTRACT],
)


def where(tmp_path: Path) -> Where:
    """The names of the small repository and the plan."""
    return Where(write_tree(tmp_path / "repo", REPO), [CONTRACT])


def test_a_check_is_a_test_importing_what_it_calls_inside_itself(tmp_path: Path) -> None:
    check = Check(criterion=1, call="plants_per_row(90)", returns="4.0")
    test = check_test(check, 3, where(tmp_path))
    assert test.name == "test_check_3_criterion_1"
    assert test.source == (
        "def test_check_3_criterion_1():\n"
        "    from garden.beds import plants_per_row\n"
        "    assert plants_per_row(90) == pytest.approx(4.0)\n"
    )


def test_setup_errors_and_a_promised_function(tmp_path: Path) -> None:
    check = Check(criterion=2, setup="b = Bed(-5)", call="spacing_cm(b.width)", raises="ValueError")
    source = check_test(check, 1, where(tmp_path)).source
    assert "    from garden.beds import Bed\n" in source
    assert "    from garden.beds import spacing_cm\n" in source  # the contract's module
    assert "    b = Bed(-5)\n    with pytest.raises(ValueError):\n" in source


def test_a_module_named_in_the_call_is_imported(tmp_path: Path) -> None:
    check = Check(criterion=1, call="garden.beds.parse('2')", returns="2.0")
    assert "    import garden\n" in check_test(check, 1, where(tmp_path)).source


@pytest.mark.parametrize(
    ("check", "says"),
    [
        (Check(criterion=1, call="rows_needed(1)", returns="1"), "reads `rows_needed`, which"),
        (Check(criterion=1, call="parse('x')"), "either the value returned or the error"),
        (Check(criterion=1, call="parse(", returns="1"), "its call is not Python"),
        (Check(criterion=1, call="parse('x')", raises="not an error"), "not an exception"),
    ],
)
def test_a_check_that_cannot_be_a_test_says_why(tmp_path: Path, check: Check, says: str) -> None:
    with pytest.raises(CheckError, match=says):
        check_test(check, 1, where(tmp_path))


def test_unquoted_words_passed_or_expected_are_the_text_they_spell(tmp_path: Path) -> None:
    check = Check(criterion=1, setup="x = 2", call="parse(seedling, x)", returns="Seedling")
    source = check_test(check, 1, where(tmp_path)).source
    assert "    assert parse('seedling', x) == 'Seedling'\n" in source
    bound = Check(criterion=1, call="plants_per_row(Bed)", returns="parse")
    assert "plants_per_row(Bed) == parse" in check_test(bound, 1, where(tmp_path)).source


def test_the_same_check_twice_is_one_test(tmp_path: Path) -> None:
    check = Check(criterion=1, call="plants_per_row(60)", returns="3")
    tests, dropped = check_tests(Checks(checks=[check, check]), where(tmp_path))
    assert len(tests) == 1 and dropped == []


def checks_answer(checks: list[dict[str, Any]]) -> str:
    """The model's answer listing these checks."""
    return json.dumps({"checks": checks})


async def run_with_checks(tmp_path: Path, handle: Any, revisions: int) -> Implementation:
    """The loop on the small repository with acceptance checks on, its model `handle`."""
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    return await implement_plan(
        team(handle), repo, TICKET, PLAN, None, tester=tester, max_revisions=revisions,
        example_tests=True,
    )  # fmt: skip


async def test_checks_are_kept_as_they_behave_on_the_original_code(tmp_path: Path) -> None:
    listed = [
        {"criterion": 1, "call": "plants_per_row(60)", "returns": "3"},  # fails: kept
        {"criterion": 1, "call": "plants_per_row(90)", "returns": "4"},  # fails: kept
        {"criterion": 1, "call": "plants_per_row(60) * 0", "returns": "0"},  # passes: dropped
        {"criterion": 2, "call": "parse('warm')", "raises": "ValueError", "holds_already": True},
        {"criterion": 2, "call": "parse('1')", "raises": "ValueError", "holds_already": True},
        {"criterion": 2, "call": "rows_needed(1)", "returns": "1"},  # resolves nowhere
    ]

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "acceptance_checks":
            assert "1. A 60 cm row holds 3 plants and a 90 cm row 4." in messages[-1].text
            assert "spacing_cm(kind)" in messages[-1].text  # the contract
            return checks_answer(listed)
        return verdict(True) if task == "review" else file_answer(BEDS, FIXED)

    result = await run_with_checks(tmp_path, handle, revisions=2)
    changes = {c.path: c.content for c in result.changes}
    module = changes[criteria_path(TICKET.key)]
    assert "def test_check_1_criterion_1" in module and "def test_check_2_criterion_1" in module
    assert "def test_check_4_criterion_2" in module  # holds already, and passes
    assert "test_check_3" not in module and "test_check_5" not in module
    assert "test_check_6" not in module
    assert "3 of 6 checks kept, 2 failing on the original code as they should" in result.notes
    assert "check 6 left out: it reads `rows_needed`" in result.notes
    assert "test_check_3_criterion_1 left out: it passes on the original code" in result.notes
    assert "test_check_5_criterion_2 left out: it says this holds already" in result.notes
    assert changes[BEDS] == FIXED and result.tests_passed
    covered = {c.criterion: c.test for c in result.criteria}
    path = criteria_path(TICKET.key)
    assert covered["A 60 cm row holds 3 plants and a 90 cm row 4."] in {
        f"{path}::test_check_1_criterion_1",
        f"{path}::test_check_2_criterion_1",
    }


async def test_no_check_of_the_change_failing_keeps_no_test_module(tmp_path: Path) -> None:
    listed = [{"criterion": 1, "call": "parse('3')", "returns": "3.0"}]

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "acceptance_checks":
            return checks_answer(listed)
        return verdict(True) if task == "review" else file_answer(BEDS, FIXED)

    result = await run_with_checks(tmp_path, handle, revisions=1)
    assert criteria_path(TICKET.key) not in {c.path for c in result.changes}
    assert "checks dropped, none of the change fails on the original code" in result.notes


def test_a_check_test_carries_its_criterion_so_coverage_finds_it(tmp_path: Path) -> None:
    criteria = ["Rows get one more plant.", 'A "bad" width is refused.']
    listed = [
        Check(criterion=2, call="parse('x')", raises="ValueError", holds_already=True),
        Check(criterion=9, call="plants_per_row(60)", returns="3"),  # no such criterion
    ]
    tests, dropped = check_tests(Checks(checks=listed), where(tmp_path), criteria)
    assert dropped == []
    assert tests[0].source.startswith(
        "def test_check_1_criterion_2():\n    'A \"bad\" width is refused.'\n"
    )
    assert written_for(tests[0].source) == criteria[1]
    assert written_for(tests[1].source) is None


def test_a_call_written_as_statements_keeps_its_last_expression_as_the_call(
    tmp_path: Path,
) -> None:
    check = Check(
        criterion=1, setup="b = Bed(60)", call="w = b.width; n = plants_per_row(w); n", returns="3"
    )
    source = check_test(check, 1, where(tmp_path)).source
    assert "    b = Bed(60)\n    w = b.width\n    n = plants_per_row(w)\n    assert n == 3\n" in (
        source
    )
    assigned = Check(criterion=1, call="b = Bed(90)\nrows = plants_per_row(b.width)", returns="4")
    assert (
        "    assert plants_per_row(b.width) == 4\n"
        in check_test(assigned, 2, where(tmp_path)).source
    )
    for broken in ("b = Bed(", "import os", ""):
        with pytest.raises(CheckError, match="its call is not Python"):
            check_test(Check(criterion=1, call=broken, returns="1"), 3, where(tmp_path))
