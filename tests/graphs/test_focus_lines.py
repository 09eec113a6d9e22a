"""A worker that gives back a tried version is shown only the lines that reject the test."""

from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.diagnose.focus_lines import focus_lines
from graphs.implementation.worker.window import focus_window
from graphs.schemas import FailedTest, Plan, PlannedFile, TicketContext
from harness.local_tester import LocalTester
from tests.graphs.test_implementation_loop import Reply, file_answer, tasks_of, team, verdict
from tests.support.byte_sizes import BYTE_SIZES

SIZES = "storage/sizes.py"
ORIGINAL = BYTE_SIZES
WITHOUT_KB = (
    '_SIZE = re.compile(r"(\\d+)(B|MB|GB)")\n_FACTORS = {"B": 1, "MB": 1024**2, "GB": 1024**3}\n'
)
WITH_KB = (
    '_SIZE = re.compile(r"(\\d+)(B|KB|MB|GB)")\n'
    '_FACTORS = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}\n'
)
SIZE_TESTS = (
    "import pytest\n\nfrom storage.sizes import parse_size\n\n\n"
    'def test_megabytes():\n    assert parse_size("4MB") == 4194304\n\n\n'
    "def test_unknown_unit():\n    with pytest.raises(ValueError):\n"
    '        parse_size("3XB")\n'
)
KB_TEST = (
    "from storage.sizes import parse_size\n\n\n"
    'def test_kilobytes():\n    assert parse_size("10KB") == 10240\n'
)
PYPROJECT = '[project]\nname = "storage"\nversion = "0.1.0"\n\n'
PYPROJECT += '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'
TICKET = TicketContext(
    key="SIZE-1",
    summary="parse_size should understand kilobytes",
    description="Add kilobytes: `10KB` is 10240 bytes.",
    labels=[],
    acceptance_criteria='`parse_size("10KB")` returns `10240`.',
)
PLAN = Plan(
    version=1,
    summary="Add kilobytes.",
    files=[PlannedFile(path=SIZES, action="modify", purpose="Add the unit KB.")],
    test_plan=["python -m pytest -q"],
    risks=[],
    contracts=[],
    markdown="# Plan",
)


def sizes_repo(tmp_path: Path) -> tuple[Path, LocalTester]:
    """A small byte-size repository with a failing test of kilobytes, and its tester."""
    repo = tmp_path / "repo"
    files = {
        "pyproject.toml": PYPROJECT,
        "storage/__init__.py": '"""Storage helpers."""\n',
        SIZES: ORIGINAL,
        "tests/test_sizes.py": SIZE_TESTS,
        "tests/test_kilobytes.py": KB_TEST,
    }
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    return repo, LocalTester(repo, tmp_path / "runs", "python -m pytest -q")


async def test_a_repeated_version_is_asked_again_for_the_values_the_raising_check_reads(
    tmp_path: Path,
) -> None:
    repo, tester = sizes_repo(tmp_path)
    docstring_only = ORIGINAL.replace("like `512B` or `4MB`", "like `512B`, `10KB` or `4MB`")

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        if inputs["window"]["start_line"] == 6:
            return file_answer(SIZES, WITH_KB)
        return file_answer(SIZES, docstring_only)  # the same version every time

    model = team(handle)
    result = await implement_plan(model, repo, TICKET, PLAN, None, tester=tester)
    assert result.tests_passed, result.notes
    (change,) = result.changes
    assert change.content == docstring_only.replace(WITHOUT_KB, WITH_KB)
    focused = model.received[-2][-1].text  # the last worker call, before the review
    assert "you are shown lines 6-7" in focused and "rejects what the failing test" in focused
    assert tasks_of(model) == [
        "implement_file",
        "review",
        "implement_file",
        "implement_file",
        "review",
    ]


async def test_focused_lines_given_back_as_they_were_are_asked_for_again(tmp_path: Path) -> None:
    repo, tester = sizes_repo(tmp_path)
    as_they_were = "".join(ORIGINAL.splitlines(keepends=True)[5:7])
    assert as_they_were == WITHOUT_KB
    focused_answers = iter([as_they_were, WITH_KB])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        if inputs["window"]["start_line"] == 6:
            return file_answer(SIZES, next(focused_answers))
        return file_answer(SIZES, ORIGINAL.replace("512B or 4MB.", "512B, 10KB or 4MB."))

    model = team(handle)
    result = await implement_plan(model, repo, TICKET, PLAN, None, tester=tester)
    assert result.tests_passed, result.notes
    assert '"KB": 1024' in result.changes[0].content
    assert tasks_of(model).count("implement_file") == 4  # revision 1; a repeat, focused twice


def raising(details: str) -> FailedTest:
    """A failure whose traceback ends in `speed/s.py`."""
    return FailedTest(test_id="t::test_knots", file="tests/t.py", message="", details=details)


def test_without_module_values_the_check_and_its_raise_are_the_focus() -> None:
    text = (
        "def to_kmh(value, unit):\n"
        '    if unit not in ("kmh", "mph"):\n'
        '        raise ValueError("unknown unit")\n'
        "    return value\n"
    )
    failure = raising(
        '>       raise ValueError("unknown unit")\nE   ValueError\n\nspeed/s.py:3: ValueError'
    )
    assert focus_lines([failure], "speed/s.py", text) == (2, 3)
    window = focus_window(text, (2, 3))
    assert window is not None and window.text.startswith("    if unit not in")
    assert focus_window(text, (4, 9)) is None  # the file no longer has those lines


def test_no_focus_when_the_test_fails_on_a_value_or_elsewhere() -> None:
    text = "def to_kmh(value):\n    return value + 1\n"
    returned = raising(">       return value + 1\n\nspeed/s.py:2: AssertionError")
    assert focus_lines([returned], "speed/s.py", text) is None
    assert focus_lines([raising("tests/t.py:3: AssertionError")], "speed/s.py", text) is None
