"""Planned paths name the repository's files as they are."""

from graphs.analysis.index import Snippet
from graphs.analysis.tools import format_snippets, snippet_paths
from graphs.planning.paths import resolve_paths
from graphs.schemas import PlannedFile

REPOSITORY = [
    "csvsum/__init__.py", "csvsum/stats.py", "csvsum/cli.py", "tests/test_stats.py", "README.md",
]  # fmt: skip
DEPOT = [
    "depot/__init__.py", "depot/billing/__init__.py", "depot/billing/invoices.py",
    "depot/shipping/__init__.py", "depot/shipping/labels.py", "depot/shipping/weights.py",
    "tests/test_depot.py",
]  # fmt: skip
# context_query's ranking for a ticket about the weight on a parcel's label
RELATED = ["tests/test_depot.py", "depot/shipping/__init__.py", "depot/shipping/weights.py",
           "depot/shipping/labels.py"]  # fmt: skip


def planned(path: str, action: str = "modify") -> PlannedFile:
    return PlannedFile(path=path, action=action, purpose="x")  # type: ignore[arg-type]


def test_an_invented_location_resolves_to_the_file_of_that_name() -> None:
    files, notes, _ = resolve_paths([planned("src/stats.py", "create")], REPOSITORY)
    assert [(f.path, f.action) for f in files] == [("csvsum/stats.py", "modify")]
    assert notes == [
        "Planned `src/stats.py` is the repository's `csvsum/stats.py`: the plan now names it."
    ]
    files, _, _ = resolve_paths([planned("stats.py")], REPOSITORY)
    assert files[0].path == "csvsum/stats.py"


def test_a_new_module_where_no_code_lives_goes_into_the_package() -> None:
    files, notes, _ = resolve_paths([planned("src/median.py", "create")], REPOSITORY)
    assert files[0].path == "csvsum/median.py" and files[0].action == "create"
    assert "placed beside the code" in notes[0]


def test_existing_files_new_files_beside_the_code_and_tests_stay_as_planned() -> None:
    kept = [
        planned("csvsum/cli.py"),
        planned("csvsum/median.py", "create"),
        planned("tests/test_median.py", "create"),
        planned("stats.md", "create"),
    ]
    files, notes, _ = resolve_paths(kept, REPOSITORY)
    assert files == kept and notes == []


def test_a_file_to_create_that_the_repository_has_is_changed_instead() -> None:
    files, notes, renamed = resolve_paths([planned("csvsum/stats.py", "create")], REPOSITORY)
    assert [(f.path, f.action) for f in files] == [("csvsum/stats.py", "modify")]
    assert notes == [
        "Planned to create `csvsum/stats.py`, which the repository has: the plan now changes it."
    ]
    assert renamed == {}


def test_two_planned_paths_meaning_one_file_become_one_entry() -> None:
    files, _, _ = resolve_paths([planned("csvsum/stats.py"), planned("lib/stats.py")], REPOSITORY)
    assert [f.path for f in files] == ["csvsum/stats.py"]


def test_a_missing_file_to_change_becomes_the_related_code_the_ticket_is_about() -> None:
    invented = planned("depot/billing/calculate_weight.py")
    files, notes, renamed = resolve_paths([invented], DEPOT, RELATED, "label weight of a box")
    assert [(f.path, f.action) for f in files] == [("depot/shipping/weights.py", "modify")]
    assert renamed == {"depot/billing/calculate_weight.py": "depot/shipping/weights.py"}
    assert "`depot/billing/calculate_weight.py` to change is not in the repository" in notes[0]


def test_a_missing_file_meaning_a_planned_one_becomes_one_entry() -> None:
    kept = [planned("depot/shipping/weights.py"), planned("depot/billing/calculate_weight.py")]
    files, _, _ = resolve_paths(kept, DEPOT, RELATED, "label weight")
    assert [f.path for f in files] == ["depot/shipping/weights.py"]


def test_a_missing_file_the_ticket_names_or_without_related_code_stays_as_planned() -> None:
    asked = planned("depot/billing/calculate_weight.py")
    assert resolve_paths([asked], DEPOT, RELATED, "Add `calculate_weight`.").files == [asked]
    assert resolve_paths([asked], DEPOT, [], "label weight").files == [asked]
    test = planned("tests/test_weights.py")
    assert resolve_paths([test], DEPOT, RELATED, "label weight").files == [test]


def test_the_paths_of_a_context_query_result_come_back_best_first() -> None:
    snippets = [
        Snippet(path=p, start_line=1, end_line=3, text="x = 1\n", score=1.0)
        for p in ["a/b.py", "tests/test_b.py", "a/b.py"]
    ]
    assert snippet_paths(format_snippets(snippets)) == ["a/b.py", "tests/test_b.py"]
    assert snippet_paths("No code in the repository matches the query.") == []
