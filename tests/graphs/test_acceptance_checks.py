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
from graphs.schemas import Contract, Plan, PlannedFile, TicketContext
from harness.local_tester import LocalTester
from tests.graphs.conftest import write_tree
from tests.graphs.test_implementation_loop import Reply, file_answer, team, verdict

UNITS = "thermo/units.py"
BUGGY = (
    "class Reading:\n"
    "    def __init__(self, celsius):\n"
    "        self.celsius = celsius\n\n\n"
    "def to_fahrenheit(celsius):\n"
    "    return celsius * 9 / 5\n\n\n"
    "def parse(text):\n"
    "    return float(text)\n"
)
FIXED = BUGGY.replace("celsius * 9 / 5\n", "celsius * 9 / 5 + 32\n")
REPO = {
    "thermo/__init__.py": "",
    UNITS: BUGGY,
    "tests/test_units.py": "from thermo.units import parse\n\n\n"
    "def test_parse():\n    assert parse('1.5') == 1.5\n",
}
TICKET = TicketContext(
    key="THERM-2",
    summary="Fahrenheit readings are 32 degrees low",
    description="Freezing shows as 0 °F.",
    acceptance_criteria="- Freezing is 32 °F and boiling 212 °F.\n- Bad text is still refused.",
)
CONTRACT = Contract(path=UNITS, signature="def to_kelvin(celsius) -> float", behaviour="K")
PLAN = Plan(
    version=1,
    summary="Add the offset.",
    files=[PlannedFile(path=UNITS, action="modify", purpose="Add 32 after scaling.")],
    test_plan=["python -m pytest -q"],
    risks=[],
    markdown="# Plan",
    contracts=[CONTRACT],
)


def where(tmp_path: Path) -> Where:
    """The names of the small repository and the plan."""
    return Where(write_tree(tmp_path / "repo", REPO), [CONTRACT])


def test_a_check_is_a_test_importing_what_it_calls_inside_itself(tmp_path: Path) -> None:
    check = Check(criterion=1, call="to_fahrenheit(100)", returns="212.0")
    test = check_test(check, 3, where(tmp_path))
    assert test.name == "test_check_3_criterion_1"
    assert test.source == (
        "def test_check_3_criterion_1():\n"
        "    from thermo.units import to_fahrenheit\n"
        "    assert to_fahrenheit(100) == pytest.approx(212.0)\n"
    )


def test_setup_errors_and_a_promised_function(tmp_path: Path) -> None:
    check = Check(
        criterion=2, setup="r = Reading(-300)", call="to_kelvin(r.celsius)", raises="ValueError"
    )
    source = check_test(check, 1, where(tmp_path)).source
    assert "    from thermo.units import Reading\n" in source
    assert "    from thermo.units import to_kelvin\n" in source  # the contract's module
    assert "    r = Reading(-300)\n    with pytest.raises(ValueError):\n" in source


def test_a_module_named_in_the_call_is_imported(tmp_path: Path) -> None:
    check = Check(criterion=1, call="thermo.units.parse('2')", returns="2.0")
    assert "    import thermo\n" in check_test(check, 1, where(tmp_path)).source


@pytest.mark.parametrize(
    ("check", "says"),
    [
        (Check(criterion=1, call="to_rankine(1)", returns="1"), "reads `to_rankine`, which"),
        (Check(criterion=1, call="parse('x')"), "either the value returned or the error"),
        (Check(criterion=1, call="parse(", returns="1"), "its call is not Python"),
        (Check(criterion=1, call="parse('x')", raises="not an error"), "not an exception"),
    ],
)
def test_a_check_that_cannot_be_a_test_says_why(tmp_path: Path, check: Check, says: str) -> None:
    with pytest.raises(CheckError, match=says):
        check_test(check, 1, where(tmp_path))


def test_the_same_check_twice_is_one_test(tmp_path: Path) -> None:
    check = Check(criterion=1, call="to_fahrenheit(0)", returns="32")
    tests, dropped = check_tests(Checks(checks=[check, check]), where(tmp_path))
    assert len(tests) == 1 and dropped == []


def checks_answer(checks: list[dict[str, Any]]) -> str:
    """The model's answer listing these checks."""
    return json.dumps({"checks": checks})


async def test_checks_are_kept_as_they_behave_on_the_original_code(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    listed = [
        {"criterion": 1, "call": "to_fahrenheit(0)", "returns": "32"},  # fails: kept
        {"criterion": 1, "call": "to_fahrenheit(100)", "returns": "212"},  # fails: kept
        {"criterion": 1, "call": "to_fahrenheit(0) * 0", "returns": "0"},  # passes: dropped
        {"criterion": 2, "call": "parse('warm')", "raises": "ValueError", "holds_already": True},
        {"criterion": 2, "call": "parse('1')", "raises": "ValueError", "holds_already": True},
        {"criterion": 2, "call": "to_celsius(1)", "returns": "1"},  # resolves nowhere
    ]

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "acceptance_checks":
            assert "1. Freezing is 32 °F and boiling 212 °F." in messages[-1].text
            assert "to_kelvin(celsius)" in messages[-1].text  # the contract
            return checks_answer(listed)
        return verdict(True) if task == "review" else file_answer(UNITS, FIXED)

    result = await implement_plan(
        team(handle), repo, TICKET, PLAN, None, tester=tester, max_revisions=2,
        example_tests=True, acceptance_checks=True,
    )  # fmt: skip
    changes = {c.path: c.content for c in result.changes}
    module = changes[criteria_path(TICKET.key)]
    assert "def test_check_1_criterion_1" in module and "def test_check_2_criterion_1" in module
    assert "def test_check_4_criterion_2" in module  # holds already, and passes
    assert "test_check_3" not in module and "test_check_5" not in module
    assert "test_check_6" not in module
    assert "3 of 6 checks kept, 2 failing on the original code as they should" in result.notes
    assert "check 6 left out: it reads `to_celsius`" in result.notes
    assert "test_check_3_criterion_1 left out: it passes on the original code" in result.notes
    assert "test_check_5_criterion_2 left out: it says this holds already" in result.notes
    assert changes[UNITS] == FIXED and result.tests_passed


async def test_no_check_of_the_change_failing_keeps_no_test_module(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    listed = [{"criterion": 1, "call": "parse('3')", "returns": "3.0"}]

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "acceptance_checks":
            return checks_answer(listed)
        return verdict(True) if task == "review" else file_answer(UNITS, FIXED)

    result = await implement_plan(
        team(handle), repo, TICKET, PLAN, None, tester=tester, max_revisions=1,
        example_tests=True, acceptance_checks=True,
    )  # fmt: skip
    assert criteria_path(TICKET.key) not in {c.path for c in result.changes}
    assert "checks dropped, none of the change fails on the original code" in result.notes
