"""Failing tests rerun under a profiler: where their call into a changed file returned."""

import sys
from pathlib import Path

import pytest

from activities.testing.trace import read_traces, trace_command, traced_tests, watched_files
from graphs.implementation.diagnose.failures import describe_failures
from graphs.schemas import FailedTest, FileChange, Returned, TestReport
from harness.local_tester import LocalTester
from integrations.workspace.commands import run_command
from integrations.workspace.sandbox import Limits, Mounts, Sandbox
from tests.graphs.conftest import write_tree
from tests.support.sandboxes import working_sandbox

CONVERT = "units/temperature.py"
SOURCE = (
    "def convert(value, source, target):\n"
    "    if source == target:\n"
    "        return value\n"
    '    if source == "C":\n'
    "        return value * 9 / 5 + 32\n"
    "    return (value - 32) * 5 / 9\n"
)
TESTS = (
    "import pytest\n\nfrom units.temperature import convert\n\n\n"
    'def test_kelvin():\n    assert convert(0, "C", "K") == pytest.approx(273.15)\n\n\n'
    'def test_same():\n    assert convert(5, "C", "C") == 5\n\n\n'
    'def test_raises():\n    with pytest.raises(ValueError):\n        convert(1, "K", "X")\n'
)
REPO = {"units/__init__.py": "", CONVERT: SOURCE, "tests/test_temperature.py": TESTS}
KELVIN = "tests/test_temperature.py::test_kelvin"


def failure(test_id: str, details: str, message: str = "assert 32.0 == 273.15") -> FailedTest:
    file = "tests/test_temperature.py"
    return FailedTest(test_id=test_id, file=file, message=message, details=details)


def test_only_tests_failing_in_their_own_asserts_are_traced() -> None:
    report = TestReport(
        passed=False,
        exit_code=1,
        output="",
        failed_tests=[
            failure(KELVIN, "tests/test_temperature.py:7: AssertionError"),
            failure("tests/t.py::test_raise", "units/temperature.py:4: ValueError"),
            failure("tests/t.py::test_none", "t.py:3: Failed", "Failed: DID NOT RAISE <class"),
            # raised at the call, before the code ran: its last call was another one
            failure("tests/t.py::test_arg", "t.py:3: TypeError", "TypeError: unexpected 'x'"),
        ],
    )
    assert traced_tests(report, [CONVERT]) == [KELVIN, "tests/t.py::test_none"]
    assert watched_files([CONVERT, "tests/test_temperature.py", "README.md"]) == [CONVERT]


@pytest.mark.parametrize("sandboxed", [False, True], ids=["plain", "bubblewrap"])
async def test_the_trace_names_the_return_line_the_arguments_and_the_value(
    tmp_path: Path, sandboxed: bool
) -> None:
    repo = write_tree(tmp_path, REPO)
    sandbox = (
        working_sandbox(Limits(memory_mb=1024, processes=64, cpu_seconds=30))
        if sandboxed
        else Sandbox(mode="none")
    )
    command = trace_command([KELVIN, "tests/test_temperature.py::test_same"], [CONVERT])
    venv = Path(sys.prefix)  # the environment the command runs in, as a test run's would be
    base = Mounts(readable=[Path(sys.base_prefix)])  # the interpreter the environment links to
    result = await run_command(repo, command, 120, sandbox=sandbox, env_dir=venv, mounts=base)
    traces = read_traces(result.output)
    assert traces[KELVIN] == Returned(
        path=CONVERT,
        line=5,
        code="return value * 9 / 5 + 32",
        arguments="value = 0, source = 'C', target = 'K'",
        value="32.0",
    ), result.output
    assert traces["tests/test_temperature.py::test_same"].line == 3  # traced although it passes
    assert not (repo / ".pytest_cache").exists()


def test_output_without_a_trace_reads_as_none() -> None:
    assert read_traces("1 failed\n") == {}
    assert read_traces("ticketsmith-trace {not json\n") == {}


async def test_the_worker_is_pointed_at_the_line_that_returned_the_wrong_value(
    tmp_path: Path,
) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path, "python -m pytest -q")
    change = FileChange(
        path=CONVERT, content=SOURCE.replace("    return value\n", "    return value + 0\n")
    )
    report = await tester([change])
    kelvin = next(f for f in report.failed_tests if f.test_id == KELVIN)
    assert kelvin.returned is not None and kelvin.returned.line == 5
    raising = next(f for f in report.failed_tests if f.test_id.endswith("test_raises"))
    assert raising.returned is not None and raising.returned.line == 6  # DID NOT RAISE
    told = describe_failures([kelvin], repo, {CONVERT: change}, CONVERT)
    assert (
        "This test's call returned 32.0 from your file at line 5 (called with value = 0,"
        " source = 'C', target = 'K'): `return value * 9 / 5 + 32`, inside `if source == \"C\":`;"
        " the test expects 273.15 ± "
    ) in told
    moved = {CONVERT: FileChange(path=CONVERT, content="\n" + change.content)}
    assert "returned 32.0" not in describe_failures([kelvin], repo, moved, CONVERT)  # line moved
