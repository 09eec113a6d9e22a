"""A failing test's traceback points the worker at the line of its own file where it fails."""

from pathlib import Path

import pytest

from graphs.implementation.diagnose.failing_line import expected_value, where_it_fails
from graphs.implementation.diagnose.failures import describe_failures
from graphs.implementation.diagnose.values_read import names_read
from graphs.schemas import FailedTest, FileChange
from harness.local_tester import LocalTester
from tests.support.byte_sizes import BYTE_SIZES

PYPROJECT = '[project]\nname = "fixture"\nversion = "0.1.0"\n\n'
PYPROJECT += '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'
SOURCE = "lengths/metres.py"
# `to_metres` rejects "km" on its line 11, under the `if` of line 10.
LENGTHS = '''"""Lengths expressed in metres."""


def to_metres(value: float, unit: str) -> float:
    """`value` in `unit` ("m", "cm" or "ft") expressed in metres."""
    if unit == "m":
        return value
    if unit == "cm":
        return value / 100
    if unit != "ft":
        raise ValueError(f"unknown length unit: {unit}")
    return value * 0.3048
'''
TESTS = """from lengths.metres import to_metres


def test_kilometres():
    assert to_metres(2, "km") == 2000


def test_centimetres():
    assert to_metres(150, "cm") == 1.6
"""
SIZES = BYTE_SIZES  # rejects "KB" on its line 14, reading the values of lines 6 and 7


def write_repo(root: Path, files: dict[str, str]) -> Path:
    """A small repository of these files (a package, its tests and a pyproject.toml)."""
    for path, text in {"pyproject.toml": PYPROJECT, **files}.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


@pytest.fixture
async def failures(tmp_path: Path) -> dict[str, FailedTest]:
    """The two failing tests of a real pytest run: one raising in the code, one in the test."""
    files = {"lengths/__init__.py": "", SOURCE: LENGTHS, "tests/test_lengths.py": TESTS}
    repo = write_repo(tmp_path / "repo", files)
    report = await LocalTester(repo, tmp_path / "runs", "python -m pytest -q")([])
    return {f.test_id.rsplit("::", 1)[-1]: f for f in report.failed_tests}


def test_the_worker_is_pointed_at_the_raising_line_its_arguments_and_condition(
    failures: dict[str, FailedTest], tmp_path: Path
) -> None:
    text = describe_failures([failures["test_kilometres"]], tmp_path / "repo", {}, SOURCE)
    assert (
        "This test fails in your file at line 11 (called with value = 2, unit = 'km'):"
        ' `raise ValueError(f"unknown length unit: {unit}")`, inside `if unit != "ft":`.'
    ) in text


def test_no_pointer_when_the_test_itself_fails_or_for_the_test_files_worker(
    failures: dict[str, FailedTest], tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    assert "fails in your file" not in describe_failures(
        [failures["test_centimetres"]], repo, {}, SOURCE
    )
    assert "fails in your file" not in describe_failures(
        [failures["test_kilometres"]], repo, {}, "tests/test_lengths.py"
    )


def test_no_pointer_when_the_file_shown_is_not_the_version_tested(
    failures: dict[str, FailedTest], tmp_path: Path
) -> None:
    moved = FileChange(path=SOURCE, content="# a comment pushes every line down\n" + LENGTHS)
    failure = failures["test_kilometres"]
    text = describe_failures([failure], tmp_path / "repo", {SOURCE: moved}, SOURCE)
    assert "fails in your file" not in text
    assert "ValueError: unknown length unit: km" in text


def test_assignments_in_the_frames_source_are_not_taken_for_its_arguments() -> None:
    failure = FailedTest(
        test_id="tests/test_sizes.py::test_kilobytes",
        file="tests/test_sizes.py",
        message="ValueError: cannot parse size '10KB'",
        details=(
            "_ _ _ _ _ _ _ _ _ _\n\ntext = '10KB'\n\n    def parse_size(text: str) -> int:\n"
            "        size = 0\n        if size == 0:\n"
            '>           raise ValueError(f"cannot parse size {text!r}")\n'
            "E           ValueError: cannot parse size '10KB'\n\n"
            "storage/sizes.py:4: ValueError"
        ),
    )
    text = "def parse_size(text: str) -> int:\n    size = 0\n    if size == 0:\n"
    text += '        raise ValueError(f"cannot parse size {text!r}")\n'
    assert where_it_fails(failure, "storage/sizes.py", text).startswith(
        "This test fails in your file at line 4 (called with text = '10KB'): `raise"
    )


def test_the_expected_value_is_the_other_side_of_the_comparison_with_the_returned_one() -> None:
    details = (
        "    def test_warm_colours():\n>       assert warm(['red', 'blue', 'amber']) == [1, 3]\n"
        "E       assert [2] == [1, 3]\nE         At index 0 diff: 2 != 1\n"
    )
    failure = FailedTest(test_id="t::test_warm_colours", file="t.py", message="", details=details)
    assert expected_value(failure, "[2]") == "[1, 3]"
    assert expected_value(failure, "[1, 3]") == ""  # not the value the call returned
    worded = failure.model_copy(update={"details": "E       AssertionError: assert 'ab' == 'a'"})
    assert expected_value(worded, "'ab'") == "'a'"


async def test_a_raising_check_is_named_with_the_module_values_it_reads(tmp_path: Path) -> None:
    kilobytes = "from storage.sizes import parse_size\n\n\ndef test_kilobytes():\n"
    kilobytes += '    assert parse_size("10KB") == 10240\n'
    files = {"storage/__init__.py": "", "storage/sizes.py": SIZES}
    repo = write_repo(tmp_path / "repo", {**files, "tests/test_sizes.py": kilobytes})
    report = await LocalTester(repo, tmp_path / "runs", "python -m pytest -q")([])
    (failure,) = report.failed_tests
    text = describe_failures([failure], repo, {}, "storage/sizes.py")
    assert "Your code raises this error itself for these arguments, but the test does not" in text
    assert (
        'The function reads `_SIZE = re.compile(r"(\\d+)(B|MB|GB)")` (line 6),'
        ' `_FACTORS = {"B": 1, "MB": 1024**2, "GB": 1024**3}` (line 7).'
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
