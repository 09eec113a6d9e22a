"""A worker that gives back a tried version is shown only the lines that reject the test."""

import shutil
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from config import ROOT
from graphs.implementation import implement_plan
from graphs.implementation.diagnose.focus_lines import focus_lines
from graphs.implementation.worker.window import focus_window
from graphs.schemas import FailedTest, Plan, PlannedFile, TicketContext
from harness.local_tester import LocalTester
from tests.graphs.test_implementation_loop import Reply, file_answer, tasks_of, team, verdict

DURATIONS = "timefmt/durations.py"
REPO = ROOT / "bench" / "quality" / "tickets" / "duration-days" / "repo"
ORIGINAL = (REPO / DURATIONS).read_text()
DAYS_TEST = (
    "from timefmt.durations import parse_duration\n\n\n"
    'def test_days():\n    assert parse_duration("7d") == 604800\n'
)
WITH_DAYS = (
    '_PART = re.compile(r"(\\d+)([dhms])")\n_SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1}\n'
)
TICKET = TicketContext(
    key="DUR-1",
    summary="parse_duration should understand days",
    description="Add days: `7d` is 604800 seconds.",
    labels=[],
    acceptance_criteria='`parse_duration("7d")` returns `604800`.',
)
PLAN = Plan(
    version=1,
    summary="Add days.",
    files=[PlannedFile(path=DURATIONS, action="modify", purpose="Add the unit d.")],
    test_plan=["python -m pytest -q"],
    risks=[],
    contracts=[],
    markdown="# Plan",
)


def days_repo(tmp_path: Path) -> tuple[Path, LocalTester]:
    """The benchmark's duration repository with a failing test of days, and its tester."""
    repo = shutil.copytree(REPO, tmp_path / "repo")
    (repo / "tests" / "test_days.py").write_text(DAYS_TEST)
    return repo, LocalTester(repo, tmp_path / "runs", "python -m pytest -q")


async def test_a_repeated_version_is_asked_again_for_the_values_the_raising_check_reads(
    tmp_path: Path,
) -> None:
    repo, tester = days_repo(tmp_path)
    docstring_only = ORIGINAL.replace("like `1h30m` or `45s`", "like `1h30m`, `45s` or `7d`")

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        if inputs["window"]["start_line"] == 5:
            return file_answer(DURATIONS, WITH_DAYS)
        return file_answer(DURATIONS, docstring_only)  # the same version every time

    model = team(handle)
    result = await implement_plan(model, repo, TICKET, PLAN, None, tester=tester)
    assert result.tests_passed, result.notes
    (change,) = result.changes
    assert change.content == docstring_only.replace(
        '_PART = re.compile(r"(\\d+)([hms])")\n_SECONDS = {"h": 3600, "m": 60, "s": 1}\n', WITH_DAYS
    )
    focused = model.received[-2][-1].text  # the last worker call, before the review
    assert "you are shown lines 5-6" in focused and "rejects what the failing test" in focused
    assert tasks_of(model) == [
        "implement_file",
        "review",
        "implement_file",
        "implement_file",
        "review",
    ]


async def test_focused_lines_given_back_as_they_were_are_asked_for_again(tmp_path: Path) -> None:
    repo, tester = days_repo(tmp_path)
    as_they_were = "".join(ORIGINAL.splitlines(keepends=True)[4:6])
    focused_answers = iter([as_they_were, WITH_DAYS])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        if inputs["window"]["start_line"] == 5:
            return file_answer(DURATIONS, next(focused_answers))
        return file_answer(DURATIONS, ORIGINAL.replace("1h30m.", "1h30m or 7d."))

    model = team(handle)
    result = await implement_plan(model, repo, TICKET, PLAN, None, tester=tester)
    assert result.tests_passed, result.notes
    assert "86400" in result.changes[0].content
    assert tasks_of(model).count("implement_file") == 4  # revision 1; a repeat, focused twice


def raising(details: str) -> FailedTest:
    """A failure whose traceback ends in `units/t.py`."""
    return FailedTest(test_id="t::test_k", file="tests/t.py", message="", details=details)


def test_without_module_values_the_check_and_its_raise_are_the_focus() -> None:
    text = (
        "def convert(value, source):\n"
        '    if source not in ("C", "F"):\n'
        '        raise ValueError("unknown unit")\n'
        "    return value\n"
    )
    failure = raising(
        '>       raise ValueError("unknown unit")\nE   ValueError\n\nunits/t.py:3: ValueError'
    )
    assert focus_lines([failure], "units/t.py", text) == (2, 3)
    window = focus_window(text, (2, 3))
    assert window is not None and window.text.startswith("    if source not in")
    assert focus_window(text, (4, 9)) is None  # the file no longer has those lines


def test_no_focus_when_the_test_fails_on_a_value_or_elsewhere() -> None:
    text = "def convert(value):\n    return value + 1\n"
    returned = raising(">       return value + 1\n\nunits/t.py:2: AssertionError")
    assert focus_lines([returned], "units/t.py", text) is None
    assert focus_lines([raising("tests/t.py:3: AssertionError")], "units/t.py", text) is None
