"""Criteria that state values without a call ("yes" and "on" are True) become tests of the
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

ORIGINAL = 'def parse_bool(text):\n    return text.lower() == "true"\n'
FIXED = (
    "def parse_bool(text):\n"
    "    word = text.strip().lower()\n"
    '    if word in {"true", "yes", "on", "1"}:\n        return True\n'
    '    if word in {"false", "no", "off", "0"}:\n        return False\n'
    "    raise ValueError(repr(text))\n"
)
REPO = {"settings/__init__.py": "", "settings/values.py": ORIGINAL}
TEXT = "Reading flags\n`settings.values.parse_bool` reads booleans; see `DEBUG=yes`."
CRITERIA = (
    '- "yes" and "on" are True; "no", "off" or "0" are False.\n'
    '- Case and surrounding spaces are ignored: " Yes " is True.\n'
    "- Anything else raises ValueError naming the value."
)


def test_the_subject_is_the_one_defined_function_the_ticket_names(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, {**REPO, "settings/other.py": "def parse_int(t):\n    ...\n"})
    assert implied_subject(TEXT, repo) == "parse_bool"  # DEBUG=yes is no function
    assert implied_subject(f"{TEXT} and `parse_int()`", repo) is None  # two: which one?
    assert implied_subject("`settings.values.missing`", repo) is None


def test_values_are_read_for_each_quoted_argument_of_a_criterion_that_calls_nothing() -> None:
    found = examples(CRITERIA, "parse_bool")
    assert [(e.call, e.value) for e in found] == [
        ('parse_bool("yes")', "True"),
        ('parse_bool("on")', "True"),
        ('parse_bool("no")', "False"),
        ('parse_bool("off")', "False"),
        ('parse_bool("0")', "False"),
        ('parse_bool(" Yes ")', "True"),
    ]
    assert found[0].criterion == '"yes" and "on" are True; "no", "off" or "0" are False.'
    assert examples(CRITERIA) == []  # without a subject nothing is implied
    called = '- `parse_bool("x")` is False, "y" is True.'
    assert examples(called, "parse_bool") == [Example('parse_bool("x")', "False")]


def test_the_implied_tests_fail_on_the_original_and_pass_on_the_fix(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, REPO)
    module = example_tests("BOOL-1", CRITERIA, repo, [], "parse_bool") or ""
    assert "from settings.values import parse_bool\n" in module
    assert '    assert parse_bool("no") is False\n' in module
    assert "    'Case and surrounding spaces are ignored: \" Yes \" is True.'\n" in module
    write_tree(repo, {"tests/test_examples.py": module})

    def failures() -> str:
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
        run = subprocess.run(command, cwd=repo, capture_output=True, text=True, timeout=120)
        return run.stdout.splitlines()[-1]

    assert failures().startswith("3 failed, 3 passed")  # "no", "off", "0" pass by accident
    write_tree(repo, {"settings/values.py": FIXED})
    assert failures().startswith("6 passed")


def test_a_criterion_its_implied_examples_test_needs_no_model_test() -> None:
    assert list(stated_checks(CRITERIA, "parse_bool")) == [
        "Anything else raises ValueError naming the value."
    ]
    assert len(stated_checks(CRITERIA)) == 3


def test_of_several_tests_of_one_criterion_a_failing_one_speaks_for_it() -> None:
    criterion = '"yes" and "on" are True.'
    ids = [f"tests/test_examples.py::test_example_{n}" for n in (1, 2)]
    source = f"def t():\n    {criterion!r}\n    assert parse_bool('yes') is True\n"
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
