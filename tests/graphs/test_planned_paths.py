"""Planned paths name the repository's files as they are."""

from graphs.analysis.index import Snippet
from graphs.analysis.tools import format_snippets, snippet_paths
from graphs.planning.paths import resolve_paths
from graphs.schemas import PlannedFile

REPOSITORY = [
    "gpx/__init__.py", "gpx/tracks.py", "gpx/cli.py", "tests/test_tracks.py", "README.md",
]  # fmt: skip
ORCHARD = [
    "orchard/__init__.py", "orchard/sales/__init__.py", "orchard/sales/receipts.py",
    "orchard/harvest/__init__.py", "orchard/harvest/crates.py", "orchard/harvest/yields.py",
    "tests/test_orchard.py",
]  # fmt: skip
# context_query's ranking for a ticket about the yield of a tree
RELATED = ["tests/test_orchard.py", "orchard/harvest/__init__.py", "orchard/harvest/yields.py",
           "orchard/harvest/crates.py"]  # fmt: skip


def planned(path: str, action: str = "modify") -> PlannedFile:
    return PlannedFile(path=path, action=action, purpose="x")  # type: ignore[arg-type]


def test_an_invented_location_resolves_to_the_file_of_that_name() -> None:
    files, notes, _ = resolve_paths([planned("src/tracks.py", "create")], REPOSITORY)
    assert [(f.path, f.action) for f in files] == [("gpx/tracks.py", "modify")]
    assert notes == [
        "Planned `src/tracks.py` is the repository's `gpx/tracks.py`: the plan now names it."
    ]
    files, _, _ = resolve_paths([planned("tracks.py")], REPOSITORY)
    assert files[0].path == "gpx/tracks.py"


def test_a_new_module_where_no_code_lives_goes_into_the_package() -> None:
    files, notes, _ = resolve_paths([planned("src/elevation.py", "create")], REPOSITORY)
    assert files[0].path == "gpx/elevation.py" and files[0].action == "create"
    assert "placed beside the code" in notes[0]


def test_existing_files_new_files_beside_the_code_and_tests_stay_as_planned() -> None:
    kept = [
        planned("gpx/cli.py"),
        planned("gpx/elevation.py", "create"),
        planned("tests/test_elevation.py", "create"),
        planned("tracks.md", "create"),
    ]
    files, notes, _ = resolve_paths(kept, REPOSITORY)
    assert files == kept and notes == []


def test_a_file_to_create_that_the_repository_has_is_changed_instead() -> None:
    files, notes, renamed = resolve_paths([planned("gpx/tracks.py", "create")], REPOSITORY)
    assert [(f.path, f.action) for f in files] == [("gpx/tracks.py", "modify")]
    assert notes == [
        "Planned to create `gpx/tracks.py`, which the repository has: the plan now changes it."
    ]
    assert renamed == {}


def test_two_planned_paths_meaning_one_file_become_one_entry() -> None:
    files, _, _ = resolve_paths([planned("gpx/tracks.py"), planned("lib/tracks.py")], REPOSITORY)
    assert [f.path for f in files] == ["gpx/tracks.py"]


def test_a_missing_file_to_change_becomes_the_related_code_the_ticket_is_about() -> None:
    invented = planned("orchard/sales/calculate_yield.py")
    files, notes, renamed = resolve_paths([invented], ORCHARD, RELATED, "yield of a tree")
    assert [(f.path, f.action) for f in files] == [("orchard/harvest/yields.py", "modify")]
    assert renamed == {"orchard/sales/calculate_yield.py": "orchard/harvest/yields.py"}
    assert "`orchard/sales/calculate_yield.py` to change is not in the repository" in notes[0]


def test_a_missing_file_meaning_a_planned_one_becomes_one_entry() -> None:
    kept = [planned("orchard/harvest/yields.py"), planned("orchard/sales/calculate_yield.py")]
    files, _, _ = resolve_paths(kept, ORCHARD, RELATED, "tree yield")
    assert [f.path for f in files] == ["orchard/harvest/yields.py"]


def test_a_missing_file_the_ticket_names_or_without_related_code_stays_as_planned() -> None:
    asked = planned("orchard/sales/calculate_yield.py")
    assert resolve_paths([asked], ORCHARD, RELATED, "Add `calculate_yield`.").files == [asked]
    assert resolve_paths([asked], ORCHARD, [], "tree yield").files == [asked]
    test = planned("tests/test_yields.py")
    assert resolve_paths([test], ORCHARD, RELATED, "tree yield").files == [test]


def test_the_paths_of_a_context_query_result_come_back_best_first() -> None:
    snippets = [
        Snippet(path=p, start_line=1, end_line=3, text="x = 1\n", score=1.0)
        for p in ["a/b.py", "tests/test_b.py", "a/b.py"]
    ]
    assert snippet_paths(format_snippets(snippets)) == ["a/b.py", "tests/test_b.py"]
    assert snippet_paths("No code in the repository matches the query.") == []
