"""A source file the plan left out joins the revision when the acceptance tests fail in it."""

import json
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.analysis.graph import index_repository
from graphs.implementation import implement_plan
from graphs.implementation.criteria.failing_files import failing_sources, related_sources
from graphs.schemas import FailedTest, Plan, PlannedFile, TicketContext
from harness.local_tester import LocalTester
from tests.graphs.conftest import write_tree
from tests.graphs.test_implementation_loop import Reply, file_answer, team, verdict

LAPS = "running/laps.py"
ROWS = "running/rows.py"
BOARD = "running/board.py"
RUNNING = {
    "running/__init__.py": "",
    LAPS: (
        "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Lap:\n"
        "    runner: str\n    seconds: float\n"
    ),
    ROWS: (
        "from running.laps import Lap\n\n\ndef read_row(row):\n"
        "    runner, seconds = row.strip().split(',')\n"
        "    return Lap(runner=runner, seconds=float(seconds))\n"
    ),
    BOARD: "def caption(lap):\n    return f'{lap.runner}: {lap.seconds:.1f} s'\n",
    "tests/test_running.py": (
        "from running.rows import read_row\n\n\ndef test_old_row():\n"
        "    assert read_row('ann,61.0').seconds == 61.0\n"
    ),
}
PULSE_LAPS = (
    "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Lap:\n"
    "    runner: str\n    seconds: float\n    pulse: float | None = None\n"
)
PULSE_ROWS = (
    "from running.laps import Lap\n\n\ndef read_row(row):\n"
    "    runner, seconds, *rest = row.strip().split(',')\n"
    "    pulse = float(rest[0]) if rest else None\n"
    "    return Lap(runner=runner, seconds=float(seconds), pulse=pulse)\n"
)
TICKET = TicketContext(
    key="LAP-1",
    summary="Keep the pulse the new watches send",
    description="The new watches send `ann,58.5,160`; reading those rows fails.",
    acceptance_criteria=(
        "- A row with a third value (`ann,58.5,160`) reads as a Lap whose `pulse` is 160.0."
    ),
)
PLAN = Plan(
    version=1,
    summary="Keep the pulse on laps.",
    files=[PlannedFile(path=LAPS, action="modify", purpose="Add `pulse` to Lap.")],
    test_plan=["python -m pytest -q"],
    risks=[],
    markdown="# Plan",
)
CHECKS = json.dumps(
    {"checks": [{"criterion": 1, "call": "read_row('ann,58.5,160').pulse", "returns": "160.0"}]}
)


def failure(details: str) -> FailedTest:
    return FailedTest(
        test_id="tests/test_x.py::test_x", file="tests/test_x.py", message="E", details=details
    )


def test_a_failure_joins_the_source_file_its_traceback_ends_in(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", RUNNING)
    inside = failure(f"tests/test_x.py:5: in test_x\n{ROWS}:6: ValueError")
    library = failure(f"{ROWS}:6: in read_row\n/usr/lib/python3/json/decoder.py:3: KeyError")
    assert failing_sources([inside, library], [LAPS], repo) == [ROWS]
    assert failing_sources([inside], [ROWS], repo) == []
    assert failing_sources([failure("tests/test_x.py:5: AssertionError")], [], repo) == []
    assert failing_sources([failure("../outside.py:1: ValueError")], [], repo) == []


def test_the_source_files_the_ticket_points_to_beyond_the_plan(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", RUNNING)
    related = related_sources(index_repository(repo), TICKET, [LAPS], repo)
    assert ROWS in related and LAPS not in related
    assert all(not p.startswith("tests/") for p in related)
    assert related_sources(None, TICKET, [LAPS], repo) == []


async def test_the_file_the_acceptance_tests_fail_in_is_written_in_the_first_revision(
    tmp_path: Path,
) -> None:
    repo = write_tree(tmp_path / "repo", RUNNING)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    written: list[str] = []
    shown: list[str] = []

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "acceptance_checks":
            shown.append(str(messages[-1].content))
            return CHECKS
        if task == "review":
            return verdict(True)
        written.append(inputs["path"])
        return file_answer(inputs["path"], PULSE_ROWS if inputs["path"] == ROWS else PULSE_LAPS)

    result = await implement_plan(
        team(handle), repo, TICKET, PLAN, None, tester=tester, max_revisions=2, example_tests=True
    )
    assert "`read_row(row)`" in shown[0], "the checks' writer is not shown the reader"
    assert ROWS in written[:2], written
    assert f"{ROWS}: joins the revision, the acceptance tests fail in it" in result.notes
    changes = {c.path: c.content for c in result.changes}
    assert changes[ROWS] == PULSE_ROWS and result.tests_passed
