"""The first revision chosen among several bare drafts by the tests they pass."""

import json
from collections import Counter
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.candidates import Candidate, normal_form, preference
from graphs.implementation.criteria.ticket import disputed_path
from graphs.implementation.journal import Progress, WorkerOutcome
from graphs.models import ScriptedChatModel
from graphs.schemas import FileChange, Plan, PlannedFile, TestReport, TicketContext
from harness.local_tester import LocalTester
from tests.graphs.test_implementation_loop import team

QA_PASS = '{"passed": true, "summary": "Matches the plan.", "fixes": []}'
SHELF = '''"""A shelf of jars."""


def fits(jars: int, slots: int) -> bool:
    """Whether the jars fit on the shelf."""
    return jars < slots


def label(name: str) -> str:
    """A jar's label."""
    return name.title()
'''
OWN_TESTS = """from pantry.shelf import fits, label


def test_fewer_jars_fit():
    assert fits(2, 3)


def test_labels_are_titled():
    assert label("plum jam") == "Plum Jam"
"""
FIXED = SHELF.replace("jars < slots", "jars <= slots")
# Fixes the ticket but breaks the labels, which the repository's tests see.
BREAKS_LABELS = FIXED.replace("name.title()", "name.upper()")
# The same fix as FIXED, written another way: another syntax tree, as many tests passed.
FIXED_OTHERWISE = SHELF.replace("return jars < slots", "return not jars > slots")
# Changes the shelf's words only: the repository's tests pass as before, the bug stays.
REWORDED = SHELF.replace("Whether the jars fit on the shelf.", "Whether the jars fit.")
# Changes code the ticket is not about, and the repository's tests pass as before.
RETITLED = SHELF.replace("return name.title()", "return str.title(name)")
# FIXED again with another comment: the same syntax tree.
FIXED_COMMENTED = FIXED.replace(
    "    return jars <= slots", "    # a full shelf holds\n    return jars <= slots"
)
TICKET = TicketContext(
    key="JAR-7",
    summary="A shelf that is exactly full says the jars do not fit",
    description="Three jars on a three-slot shelf fit, but the shelf says they do not.",
    acceptance_criteria="- fits(3, 3) is True",
)
PLAN = Plan(
    version=1,
    summary="Let a full shelf hold its jars.",
    files=[PlannedFile(path="pantry/shelf.py", action="modify", purpose="Fit a full shelf.")],
    test_plan=[],
    risks=[],
    markdown="",
)


def pantry(root: Path) -> Path:
    """A repository with the shelf and its own tests."""
    repo = root / "repo"
    (repo / "pantry").mkdir(parents=True)
    (repo / "pantry/__init__.py").write_text("")
    (repo / "pantry/shelf.py").write_text(SHELF)
    (repo / "tests").mkdir()
    (repo / "tests/test_shelf.py").write_text(OWN_TESTS)
    return repo


def answer(content: str) -> str:
    return f"pantry/shelf.py\n```python\n{content}```"


async def test_the_draft_that_keeps_the_repositorys_tests_is_the_first_revision(
    tmp_path: Path,
) -> None:
    repo = pantry(tmp_path)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    model = ScriptedChatModel([answer(BREAKS_LABELS), answer(FIXED), QA_PASS])
    progress: list[Progress] = []
    result = await implement_plan(
        model, repo, TICKET, PLAN, None, tester=tester, candidates=2, max_revisions=1,
        on_progress=progress.append,
    )  # fmt: skip
    assert [c.content for c in result.changes] == [FIXED]
    assert len(model.received) == 3, "two drafts and one review, no worker call after them"
    assert "first revision: draft 2 of 2 kept (2 tests passed); draft 1: 1 tests passed" in (
        result.notes
    )
    recorded = progress[-1]
    assert [(w.revision, w.path) for w in recorded.workers] == [(1, "pantry/shelf.py")]
    assert sorted(t.revision for t in recorded.tests) == [0, 1]
    assert len(tester.runs) == 3, "the checkout, then each draft once: the first revision replays"


async def test_a_resumed_run_replays_the_chosen_draft_without_drafting_again(
    tmp_path: Path,
) -> None:
    repo = pantry(tmp_path)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    progress: list[Progress] = []
    first = ScriptedChatModel([answer(BREAKS_LABELS), answer(FIXED), QA_PASS])
    await implement_plan(
        first, repo, TICKET, PLAN, None, tester=tester, candidates=2, max_revisions=1,
        on_progress=lambda done: progress.append(done.model_copy(deep=True)),
    )  # fmt: skip
    before_review = next(p for p in reversed(progress) if not p.reviews)
    assert before_review.workers, "the chosen draft was recorded before the review"
    resumed = ScriptedChatModel([QA_PASS])
    result = await implement_plan(
        resumed, repo, TICKET, PLAN, None, tester=tester, candidates=2, max_revisions=1,
        progress=before_review,
    )  # fmt: skip
    assert [c.content for c in result.changes] == [FIXED]
    assert len(resumed.received) == 1, "only the review was still to do"


async def test_one_candidate_leaves_the_first_revision_to_its_worker(tmp_path: Path) -> None:
    repo = pantry(tmp_path)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    model = ScriptedChatModel([answer(FIXED), QA_PASS])
    result = await implement_plan(
        model, repo, TICKET, PLAN, None, tester=tester, candidates=1, max_revisions=1
    )
    assert [c.content for c in result.changes] == [FIXED]
    assert not any(note.startswith("first revision: draft") for note in result.notes)


def candidate(number: int, content: str | None, passed: int, error: str = "") -> Candidate:
    change = None if content is None else FileChange(path="pantry/shelf.py", content=content)
    outcome = WorkerOutcome(revision=1, path="pantry/shelf.py", change=change, note="")
    report = TestReport(
        passed=True, exit_code=0, output="", passed_tests=[f"t{i}" for i in range(passed)]
    )
    return Candidate(number, [outcome], None if content is None else report, error)


def test_drafts_the_tests_rank_equal_are_settled_by_agreement_then_order() -> None:
    drafts = [
        candidate(0, FIXED_OTHERWISE, 2),
        candidate(1, FIXED, 2),
        candidate(2, FIXED_COMMENTED, 2),
        candidate(3, BREAKS_LABELS, 1),
    ]
    votes = Counter(c.form() for c in drafts)
    best = max(drafts, key=lambda c: preference(c, ["t0", "t1"], votes))
    assert best.number == 1, "FIXED and its commented copy agree; the earlier of them is kept"
    alone = [candidate(0, FIXED_OTHERWISE, 2), candidate(1, FIXED, 2)]
    votes = Counter(c.form() for c in alone)
    assert max(alone, key=lambda c: preference(c, ["t0", "t1"], votes)).number == 0


def test_a_draft_that_changes_nothing_or_does_not_import_loses_to_any_tested_one() -> None:
    drafts = [
        candidate(0, None, 0),
        candidate(1, FIXED, 5, error="pantry/shelf.py: ImportError"),
        candidate(2, SHELF, 1),
    ]
    reworded = candidate(3, REWORDED, 9)
    reworded.changes_code = False
    drafts.append(reworded)
    votes = Counter(c.form() for c in drafts if c.changes)
    assert max(drafts, key=lambda c: preference(c, [], votes)).number == 2


def test_the_normal_form_ignores_comments_docstrings_and_layout_of_python_only() -> None:
    assert normal_form("a.py", FIXED) == normal_form("a.py", FIXED_COMMENTED)
    assert normal_form("a.py", SHELF) == normal_form("a.py", REWORDED)
    assert normal_form("a.py", '"""Only a docstring."""\n') == normal_form("a.py", "")
    assert normal_form("a.py", FIXED) != normal_form("a.py", FIXED_OTHERWISE)
    assert normal_form("a.py", "def (") == "def ("
    assert normal_form("notes.md", " text \n") == "text"


async def test_no_further_draft_starts_once_the_time_for_work_would_run_out(
    tmp_path: Path,
) -> None:
    repo = pantry(tmp_path)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    model = ScriptedChatModel([answer(FIXED), QA_PASS])
    result = await implement_plan(
        model, repo, TICKET, PLAN, None, tester=tester, candidates=3, max_revisions=1,
        seconds_left=0.001,
    )  # fmt: skip
    assert [c.content for c in result.changes] == [FIXED]
    assert "first revision: draft 1 of 1 kept (2 tests passed)" in result.notes


async def test_a_check_said_to_hold_that_fails_prefers_the_draft_it_passes_and_is_not_kept(
    tmp_path: Path,
) -> None:
    repo = pantry(tmp_path)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    drafts = iter([answer(RETITLED), answer(FIXED)])
    # Said to hold already, it fails on the shelf as it is: a check of the change, mislabelled.
    checks = [{"criterion": 1, "call": "fits(3, 3)", "returns": "True", "holds_already": True}]

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> str:
        if task == "acceptance_checks":
            return json.dumps({"checks": checks})
        return QA_PASS if task == "review" else next(drafts)

    result = await implement_plan(
        team(handle), repo, TICKET, PLAN, None, tester=tester, candidates=2, max_revisions=1,
        example_tests=True,
    )  # fmt: skip
    assert [c.content for c in result.changes] == [FIXED]
    assert "test_check_1_criterion_1 left out: it says this holds already, and it fails" in (
        result.notes
    )
    assert (
        "first revision: draft 2 of 2 kept (2 tests passed, 1 disputed checks);"
        " draft 1: 2 tests passed, 0 disputed checks"
    ) in result.notes
    assert disputed_path(TICKET.key) not in {c.path for c in result.changes}
