"""One outcome per tested revision: where the router sends it, and what a stall carries on."""

from pathlib import Path
from typing import Any, cast

import pytest

from graphs.implementation.diagnose.feedback import worker_feedback
from graphs.implementation.graph import make_after_tests
from graphs.implementation.state import Assignment, ImplementationState
from graphs.implementation.supervisor import supervisor
from graphs.implementation.tester.outcome import (
    Discarded,
    Kept,
    Redo,
    RevisionOutcome,
    Salvaged,
    Stalled,
)
from graphs.schemas import PlannedFile

CODE, TESTS = "calc/ops.py", "tests/test_ops.py"


def state(outcome: RevisionOutcome | None, revision: int, **more: Any) -> ImplementationState:
    """A state after the tester, with two planned files."""
    assignments = [
        Assignment(file=PlannedFile(path=p, action="modify", purpose="change"), context=[])
        for p in (CODE, TESTS)
    ]
    values = {"outcome": outcome, "revision": revision, "assignments": assignments, **more}
    return cast(ImplementationState, values)


@pytest.mark.parametrize(
    ("outcome", "revision", "route"),
    [
        (Kept(), 2, "review"),
        (Salvaged(dropped=[TESTS]), 2, "review"),
        (Discarded(2, "fewer tests pass"), 2, "supervisor"),
        (Redo({CODE: "SyntaxError"}), 2, "supervisor"),
        (Stalled(1), 2, "supervisor"),
        (Stalled(2), 3, "finish"),  # the second revision in a row that changed nothing
        (Discarded(5, "fewer tests pass"), 5, "finish"),  # no revision left
        (Kept(), 5, "review"),  # the last revision is still reviewed
    ],
)
async def test_after_tests_routes_by_the_outcome(
    outcome: RevisionOutcome, revision: int, route: str
) -> None:
    after_tests = make_after_tests(max_revisions=5, stalls_allowed=2)
    assert await after_tests(state(outcome, revision)) == route


async def test_after_tests_refuses_a_state_the_tester_never_left() -> None:
    with pytest.raises(ValueError, match="without a tested revision"):
        await make_after_tests(max_revisions=5)(state(None, 1))


def test_a_stall_after_a_redo_sends_the_broken_file_back_alone() -> None:
    stalled = Stalled(1, last=Redo({CODE: "SyntaxError: invalid syntax (line 3)"}))
    assert supervisor(state(stalled, 2))["round_paths"] == [CODE]
    assert supervisor(state(Stalled(1), 2))["round_paths"] == [CODE, TESTS]  # nothing to redo


def test_a_discarded_revision_sends_its_own_files_again() -> None:
    after = state(Discarded(2, "fewer tests pass"), 2, round_paths=[TESTS])
    assert supervisor(after)["round_paths"] == [TESTS]


def test_a_worker_is_told_of_the_last_tested_outcome_after_a_stall(tmp_path: Path) -> None:
    discarded = Discarded(2, "it broke tests that passed before: test_add", held={CODE: "E"})
    feedback = worker_feedback(state(Stalled(1, last=discarded), 3, repo_dir=tmp_path), CODE)
    assert "Revision 2 was discarded: it broke tests that passed before: test_add." in feedback
    assert f"Your last version of {CODE} could not be used (E)" in feedback
    redo = state(Redo({CODE: "ImportError: no module"}), 3, repo_dir=tmp_path)
    assert "cannot be used: ImportError: no module" in worker_feedback(redo, CODE)
    assert "cannot be used" not in worker_feedback(redo, TESTS)
