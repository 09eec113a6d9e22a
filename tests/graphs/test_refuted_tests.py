"""Tests the agent wrote that fail while every acceptance test passes are left out at the end."""

import json
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.criteria.ticket import criteria_path
from graphs.implementation.finish.refuted_tests import doubtful_test_files
from graphs.implementation.tester.best import Standing
from graphs.schemas import FailedTest, FileChange, Plan, PlannedFile, TestReport, TicketContext
from harness.local_tester import LocalTester
from tests.graphs.conftest import write_tree
from tests.graphs.test_implementation_loop import Reply, file_answer, team, verdict

CORE = "trail/points.py"
TESTS = "tests/test_points.py"
BUGGY = (
    "def thinned(points, step):\n    return [points[i] for i in range(0, len(points) - 1, step)]\n"
)
FIXED = "def thinned(points, step):\n    return [points[i] for i in range(0, len(points), step)]\n"
REPO = {
    "trail/__init__.py": "",
    CORE: BUGGY,
    TESTS: "from trail.points import thinned\n\n\n"
    "def test_long_track():\n    assert thinned([1, 2, 3, 4], 2) == [1, 3]\n",
}
TICKET = TicketContext(
    key="TRAIL-1",
    summary="thinned drops the last point of a track",
    description="`trail.points.thinned(points, step)` loses the track's last point.",
    acceptance_criteria=(
        "- `thinned([1, 2, 3], 2)` returns `[1, 3]`.\n- `thinned([], 3)` returns `[]`."
    ),
)
PLAN = Plan(
    version=1,
    summary="Keep the last point.",
    files=[PlannedFile(path=CORE, action="modify", purpose="Keep the track's last point.")],
    test_plan=["python -m pytest -q"],
    risks=[],
    markdown="# Plan",
)
CHECKS = json.dumps(
    {
        "checks": [
            {"criterion": 1, "call": "thinned([1, 2, 3], 2)", "returns": "[1, 3]"},
            {"criterion": 2, "call": "thinned([], 3)", "returns": "[]", "holds_already": True},
        ]
    }
)

NEW_TESTS = "tests/test_last_point.py"
WRONG = (
    "from trail.points import thinned\n\n\n"
    "def test_last_point_dropped():\n    assert thinned([1, 2, 3], 2) == [1]\n"
)
EXAMPLES = criteria_path(TICKET.key)


async def run(tmp_path: Path, code: str) -> Any:
    """The loop on the trail ticket, two revisions: `code` for the module, then the wrong test
    QA asks for (the first revision writes the code alone: the checks fail on the original)."""
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    planned = PlannedFile(path=NEW_TESTS, action="create", purpose="Test the last point.")
    plan = PLAN.model_copy(update={"files": [*PLAN.files, planned]})

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "acceptance_checks":
            return CHECKS
        if task == "review":
            return verdict(False, (NEW_TESTS, "Test the last point."))
        return file_answer(inputs["path"], WRONG if inputs["path"] == NEW_TESTS else code)

    return await implement_plan(
        team(handle), repo, TICKET, plan, None, tester=tester, max_revisions=2, example_tests=True
    )


async def test_written_tests_the_acceptance_tests_refute_are_left_out(tmp_path: Path) -> None:
    result = await run(tmp_path, FIXED)
    assert {c.path for c in result.changes} == {CORE, EXAMPLES}
    assert result.tests_passed
    assert (
        f"Left out {NEW_TESTS}: tests written for the change ({NEW_TESTS}::test_last_point_dropped)"
        " failed while every acceptance test passed" in result.notes
    )


async def test_nothing_is_left_out_while_an_acceptance_test_fails(tmp_path: Path) -> None:
    empty_wrong = FIXED.replace("step)]\n", "step)] or [0]\n")  # thinned([], 3) == [0]
    result = await run(tmp_path, empty_wrong)
    assert NEW_TESTS in {c.path for c in result.changes}
    assert not result.tests_passed
    assert "Left out" not in result.notes


def failing(*files: str) -> TestReport:
    failures = [FailedTest(test_id=f"{f}::test_x", file=f, message="assert") for f in files]
    return TestReport(
        passed=False, exit_code=1, output="", passed_tests=[f"{EXAMPLES}::test_example_1"],
        failed_tests=failures,
    )  # fmt: skip


def test_only_changed_test_files_holding_every_failure_are_in_doubt() -> None:
    files = {p: FileChange(path=p, content="x") for p in (CORE, EXAMPLES, NEW_TESTS)}

    def standing(report: TestReport) -> Standing:
        return Standing(revision=1, files=files, tests=report, own=[])

    assert doubtful_test_files(standing(failing(NEW_TESTS)), EXAMPLES) == [NEW_TESTS]
    assert doubtful_test_files(standing(failing(NEW_TESTS, TESTS)), EXAMPLES) == []  # not changed
    assert doubtful_test_files(standing(failing(NEW_TESTS, EXAMPLES)), EXAMPLES) == []
    assert doubtful_test_files(standing(failing(NEW_TESTS)), "tests/test_other.py") == []
