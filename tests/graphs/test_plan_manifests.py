"""A plan changes the project's packaging only when the ticket asks for it."""

import pytest

from graphs.planning.manifests import asks_for_packaging, is_manifest, without_unasked_manifests
from graphs.schemas import PlannedFile


def planned(path: str, action: str = "modify") -> PlannedFile:
    return PlannedFile(path=path, action=action, purpose="x")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "path",
    ["pyproject.toml", "sub/setup.cfg", "requirements.txt", "requirements-dev.txt",
     "requirements/test.in", "uv.lock", "package.json", "Cargo.toml"],
)  # fmt: skip
def test_manifests_lock_files_and_requirements_are_packaging(path: str) -> None:
    assert is_manifest(path)


@pytest.mark.parametrize("path", ["kiln/firing.py", "tests/test_setup.py", "README.md"])
def test_code_tests_and_docs_are_not_packaging(path: str) -> None:
    assert not is_manifest(path)


def test_an_unasked_manifest_change_is_dropped_with_a_risk_line() -> None:
    files = [planned("kiln/firing.py", "create"), planned("pyproject.toml")]
    asked = "firing_time leaves out the cooling stage. A ramp of zero or less raises ValueError."
    kept, notes = without_unasked_manifests(files, asked)
    assert [f.path for f in kept] == ["kiln/firing.py"]
    assert notes == [
        "Dropped changing `pyproject.toml`: the ticket asks for no change to the project's "
        "packaging."
    ]


@pytest.mark.parametrize(
    "asked",
    [
        "Add a dependency on httpx for the client.",
        "Pin requests below 3.",
        "Expose the tool as a console script.",
    ],
)
def test_a_ticket_about_packaging_keeps_its_manifests(asked: str) -> None:
    files = [planned("tool/cli.py"), planned("pyproject.toml"), planned("uv.lock", "create")]
    assert without_unasked_manifests(files, asked) == (files, [])


def test_a_ticket_naming_one_manifest_keeps_that_one() -> None:
    files = [planned("tool/cli.py"), planned("pyproject.toml"), planned("uv.lock")]
    kept, notes = without_unasked_manifests(files, "The version in pyproject.toml is wrong.")
    assert [f.path for f in kept] == ["tool/cli.py", "pyproject.toml"]
    assert len(notes) == 1 and "`uv.lock`" in notes[0]


def test_a_plan_of_only_a_manifest_is_left_for_the_approver() -> None:
    files = [planned("requirements.txt")]
    assert without_unasked_manifests(files, "The report is slow.") == (files, [])


def test_a_file_named_in_the_ticket_counts_as_asked() -> None:
    assert asks_for_packaging("Fix the classifiers in setup.cfg", "setup.cfg")
    assert not asks_for_packaging("Fix the rounding of totals", "setup.cfg")
