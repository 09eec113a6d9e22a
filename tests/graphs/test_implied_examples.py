"""Criteria that state values without a call ("sat" and "sun" are True) become tests of the
one function the ticket names."""

import subprocess
import sys
from pathlib import Path

from graphs.implementation.criteria.examples import (
    Example,
    example_tests,
    examples,
    implied_subject,
)
from graphs.implementation.criteria.written_tests import stated_checks
from graphs.implementation.finish.coverage import covering_test
from graphs.schemas import FailedTest, TestReport
from tests.graphs.conftest import write_tree

ORIGINAL = 'def is_weekend(day):\n    return day.lower() == "saturday"\n'
FIXED = (
    "def is_weekend(day):\n"
    "    word = day.strip().lower()\n"
    '    if word in {"saturday", "sunday", "sat", "sun"}:\n        return True\n'
    '    if word in {"mon", "tue", "wed", "thu", "fri"}:\n        return False\n'
    "    raise ValueError(repr(day))\n"
)
REPO = {"diary/__init__.py": "", "diary/days.py": ORIGINAL}
TEXT = "Weekend days\n`diary.days.is_weekend` reads day names; see `SHOW=sat`."
CRITERIA = (
    '- "sat" and "sun" are True; "mon", "tue" or "wed" are False.\n'
    '- Case and surrounding spaces are ignored: " Sun " is True.\n'
    "- Anything else raises ValueError naming the value."
)


def test_the_subject_is_the_one_defined_function_the_ticket_names(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, {**REPO, "diary/other.py": "def is_holiday(t):\n    ...\n"})
    assert implied_subject(TEXT, repo) == "is_weekend"  # SHOW=sat is no function
    assert implied_subject(f"{TEXT} and `is_holiday()`", repo) is None  # two: which one?
    assert implied_subject("`diary.days.missing`", repo) is None


def test_values_are_read_for_each_quoted_argument_of_a_criterion_that_calls_nothing() -> None:
    found = examples(CRITERIA, "is_weekend")
    assert [(e.call, e.value) for e in found] == [
        ('is_weekend("sat")', "True"),
        ('is_weekend("sun")', "True"),
        ('is_weekend("mon")', "False"),
        ('is_weekend("tue")', "False"),
        ('is_weekend("wed")', "False"),
        ('is_weekend(" Sun ")', "True"),
    ]
    assert found[0].criterion == '"sat" and "sun" are True; "mon", "tue" or "wed" are False.'
    assert examples(CRITERIA) == []  # without a subject nothing is implied
    called = '- `is_weekend("x")` is False, "y" is True.'
    assert examples(called, "is_weekend") == [Example('is_weekend("x")', "False")]


def test_the_implied_tests_fail_on_the_original_and_pass_on_the_fix(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, REPO)
    module = example_tests("DAY-1", CRITERIA, repo, [], "is_weekend") or ""
    assert "from diary.days import is_weekend\n" in module
    assert '    assert is_weekend("mon") is False\n' in module
    assert "    'Case and surrounding spaces are ignored: \" Sun \" is True.'\n" in module
    write_tree(repo, {"tests/test_examples.py": module})

    def failures() -> str:
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
        run = subprocess.run(command, cwd=repo, capture_output=True, text=True, timeout=120)
        return run.stdout.splitlines()[-1]

    assert failures().startswith("3 failed, 3 passed")  # "mon", "tue", "wed" pass by accident
    write_tree(repo, {"diary/days.py": FIXED})
    assert failures().startswith("6 passed")


def test_a_criterion_its_implied_examples_test_needs_no_model_test() -> None:
    assert list(stated_checks(CRITERIA, "is_weekend")) == [
        "Anything else raises ValueError naming the value."
    ]
    assert len(stated_checks(CRITERIA)) == 3


def test_of_several_tests_of_one_criterion_a_failing_one_speaks_for_it() -> None:
    criterion = '"sat" and "sun" are True.'
    ids = [f"tests/test_examples.py::test_example_{n}" for n in (1, 2)]
    source = f"def t():\n    {criterion!r}\n    assert is_weekend('sat') is True\n"
    failing = TestReport(
        passed=False,
        exit_code=1,
        output="1 failed, 1 passed",
        passed_tests=[ids[0]],
        failed_tests=[FailedTest(test_id=ids[1], file="tests/test_examples.py", message="no")],
    )
    assert covering_test(criterion, failing, dict.fromkeys(ids, source)) == (ids[1], False)
    passing = TestReport(passed=True, exit_code=0, output="2 passed", passed_tests=ids)
    assert covering_test(criterion, passing, dict.fromkeys(ids, source)) == (ids[0], True)
