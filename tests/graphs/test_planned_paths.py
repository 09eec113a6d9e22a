"""Planned paths name the repository's files as they are."""

from graphs.planning.paths import resolve_paths
from graphs.schemas import PlannedFile

REPOSITORY = [
    "csvsum/__init__.py", "csvsum/stats.py", "csvsum/cli.py", "tests/test_stats.py", "README.md",
]  # fmt: skip


def planned(path: str, action: str = "modify") -> PlannedFile:
    return PlannedFile(path=path, action=action, purpose="x")  # type: ignore[arg-type]


def test_an_invented_location_resolves_to_the_file_of_that_name() -> None:
    files, notes = resolve_paths([planned("src/stats.py", "create")], REPOSITORY)
    assert [(f.path, f.action) for f in files] == [("csvsum/stats.py", "modify")]
    assert notes == [
        "Planned `src/stats.py` is the repository's `csvsum/stats.py`: the plan now names it."
    ]
    files, _ = resolve_paths([planned("stats.py")], REPOSITORY)
    assert files[0].path == "csvsum/stats.py"


def test_a_new_module_where_no_code_lives_goes_into_the_package() -> None:
    files, notes = resolve_paths([planned("src/median.py", "create")], REPOSITORY)
    assert files[0].path == "csvsum/median.py" and files[0].action == "create"
    assert "placed beside the code" in notes[0]


def test_existing_files_new_files_beside_the_code_and_tests_stay_as_planned() -> None:
    kept = [
        planned("csvsum/cli.py"),
        planned("csvsum/median.py", "create"),
        planned("tests/test_median.py", "create"),
        planned("stats.md", "create"),
    ]
    files, notes = resolve_paths(kept, REPOSITORY)
    assert files == kept and notes == []


def test_two_planned_paths_meaning_one_file_become_one_entry() -> None:
    files, _ = resolve_paths([planned("csvsum/stats.py"), planned("lib/stats.py")], REPOSITORY)
    assert [f.path for f in files] == ["csvsum/stats.py"]
