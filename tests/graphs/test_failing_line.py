"""A failing test's traceback points the worker at the line of its own file where it fails."""

import shutil
from pathlib import Path

import pytest

from config import ROOT
from graphs.implementation.diagnose.failing_line import expected_value, where_it_fails
from graphs.implementation.diagnose.failures import describe_failures
from graphs.implementation.diagnose.values_read import names_read
from graphs.schemas import FailedTest, FileChange
from harness.local_tester import LocalTester

SOURCE = "units/temperature.py"
# The benchmark's temperature repository: `convert` rejects "K" on its line 7.
REPO = ROOT / "bench" / "quality" / "tickets" / "temperature-kelvin" / "repo"
TESTS = """from units.temperature import convert


def test_kelvin():
    assert convert(0, "C", "K") == 273.15


def test_freezing():
    assert convert(0, "C", "F") == 33
"""


@pytest.fixture
async def failures(tmp_path: Path) -> dict[str, FailedTest]:
    """The two failing tests of a real pytest run: one raising in the code, one in the test."""
    repo = shutil.copytree(REPO, tmp_path / "repo")
    (repo / "tests" / "test_kelvin.py").write_text(TESTS)
    report = await LocalTester(repo, tmp_path / "runs", "python -m pytest -q")([])
    return {f.test_id.rsplit("::", 1)[-1]: f for f in report.failed_tests}


def test_the_worker_is_pointed_at_the_raising_line_its_arguments_and_condition(
    failures: dict[str, FailedTest], tmp_path: Path
) -> None:
    text = describe_failures([failures["test_kelvin"]], tmp_path / "repo", {}, SOURCE)
    assert (
        "This test fails in your file at line 7 (called with value = 0, source = 'C',"
        " target = 'K'): `raise ValueError(f\"unknown unit: {source} or {target}\")`,"
        ' inside `if source not in ("C", "F") or target not in ("C", "F"):`.'
    ) in text


def test_no_pointer_when_the_test_itself_fails_or_for_the_test_files_worker(
    failures: dict[str, FailedTest], tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    assert "fails in your file" not in describe_failures(
        [failures["test_freezing"]], repo, {}, SOURCE
    )
    assert "fails in your file" not in describe_failures(
        [failures["test_kelvin"]], repo, {}, "tests/test_kelvin.py"
    )


def test_no_pointer_when_the_file_shown_is_not_the_version_tested(
    failures: dict[str, FailedTest], tmp_path: Path
) -> None:
    moved = FileChange(
        path=SOURCE, content="# a comment pushes every line down\n" + (REPO / SOURCE).read_text()
    )
    text = describe_failures([failures["test_kelvin"]], tmp_path / "repo", {SOURCE: moved}, SOURCE)
    assert "fails in your file" not in text
    assert "ValueError: unknown unit: C or K" in text


def test_assignments_in_the_frames_source_are_not_taken_for_its_arguments() -> None:
    failure = FailedTest(
        test_id="tests/test_durations.py::test_days",
        file="tests/test_durations.py",
        message="ValueError: cannot parse duration '7d'",
        details=(
            "_ _ _ _ _ _ _ _ _ _\n\ntext = '7d'\n\n    def parse_duration(text: str) -> int:\n"
            "        total = 0\n        if total == 0:\n"
            '>           raise ValueError(f"cannot parse duration {text!r}")\n'
            "E           ValueError: cannot parse duration '7d'\n\n"
            "timefmt/durations.py:4: ValueError"
        ),
    )
    text = "def parse_duration(text: str) -> int:\n    total = 0\n    if total == 0:\n"
    text += '        raise ValueError(f"cannot parse duration {text!r}")\n'
    assert where_it_fails(failure, "timefmt/durations.py", text).startswith(
        "This test fails in your file at line 4 (called with text = '7d'): `raise"
    )


def test_the_expected_value_is_the_other_side_of_the_comparison_with_the_returned_one() -> None:
    details = (
        "    def test_first_page():\n>       assert paginate([1, 2, 3], 1, 2) == [1, 2]\n"
        "E       assert [3] == [1, 2]\nE         At index 0 diff: 3 != 1\n"
    )
    failure = FailedTest(test_id="t::test_first_page", file="t.py", message="", details=details)
    assert expected_value(failure, "[3]") == "[1, 2]"
    assert expected_value(failure, "[1, 2]") == ""  # not the value the call returned
    worded = failure.model_copy(update={"details": "E       AssertionError: assert 'ab' == 'a'"})
    assert expected_value(worded, "'ab'") == "'a'"


async def test_a_raising_check_is_named_with_the_module_values_it_reads(tmp_path: Path) -> None:
    durations = ROOT / "bench" / "quality" / "tickets" / "duration-days" / "repo"
    repo = shutil.copytree(durations, tmp_path / "repo")
    days = "from timefmt.durations import parse_duration\n\n\ndef test_days():\n"
    (repo / "tests" / "test_days.py").write_text(
        days + '    assert parse_duration("7d") == 604800\n'
    )
    report = await LocalTester(repo, tmp_path / "runs", "python -m pytest -q")([])
    (failure,) = report.failed_tests
    text = describe_failures([failure], repo, {}, "timefmt/durations.py")
    assert "Your code raises this error itself for these arguments, but the test does not" in text
    assert (
        'The function reads `_PART = re.compile(r"(\\d+)([hms])")` (line 5),'
        ' `_SECONDS = {"h": 3600, "m": 60, "s": 1}` (line 6).'
    ) in text


def test_only_module_values_the_failing_function_reads_are_named() -> None:
    text = (
        "LIMIT = 3\nUNUSED = 4\nnames: list[str] = []\n\n\n"
        "def check(x):\n    if x > LIMIT or x in names:\n        raise ValueError(x)\n"
        "    return x\n"
    )
    assert names_read(text, 8) == ["`LIMIT = 3` (line 1)", "`names: list[str] = []` (line 3)"]
    assert names_read(text, 1) == []  # not inside a function
    assert names_read("def broken(:\n", 1) == []
