"""Reading pytest's junit XML: outcomes, files, ids, and collection errors, from a real run."""

import subprocess
import sys
from pathlib import Path

from integrations.workspace.junit import case_file, parse_junit, read_junit


def test_a_real_report_is_read(tmp_path: Path) -> None:
    tests = tmp_path / "t"
    tests.mkdir()
    (tests / "test_a.py").write_text("import missing_module\n")
    (tests / "test_b.py").write_text(
        "def test_b():\n    assert 1 == 2\n\n\nclass TestC:\n    def test_d(self):\n        pass\n"
    )
    report = tmp_path / "r.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}"]
        + ["-o", "junit_family=xunit1", "--continue-on-collection-errors", "t"],
        cwd=tmp_path,
        capture_output=True,
    )
    cases = {c.test_id: c for c in read_junit(report)}
    assert set(cases) == {
        "t/test_a.py::t.test_a",
        "t/test_b.py::test_b",
        "t/test_b.py::TestC::test_d",
    }
    assert cases["t/test_a.py::t.test_a"].outcome == "error"
    assert "No module named 'missing_module'" in cases["t/test_a.py::t.test_a"].details
    assert cases["t/test_b.py::test_b"].outcome == "failed"
    assert cases["t/test_b.py::test_b"].message == "assert 1 == 2"
    assert cases["t/test_b.py::TestC::test_d"].outcome == "passed"


def test_not_a_report_is_no_cases(tmp_path: Path) -> None:
    assert parse_junit("this is not xml") == []
    assert read_junit(tmp_path / "missing.xml") == []


def test_the_file_comes_from_the_classname_without_a_file_attribute() -> None:
    assert case_file("tests.test_ops.TestOps", "") == "tests/test_ops.py"
    assert case_file("tests.test_ops", "") == "tests/test_ops.py"
    assert case_file("x", "given.py") == "given.py"
