"""A source file the plan left out joins the revision when the acceptance tests fail in it."""

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

READINGS = "climate/readings.py"
PARSE = "climate/parse.py"
REPORT = "climate/report.py"
CLIMATE = {
    "climate/__init__.py": "",
    READINGS: (
        "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Reading:\n"
        "    sensor: str\n    celsius: float\n"
    ),
    PARSE: (
        "from climate.readings import Reading\n\n\ndef parse_line(line):\n"
        "    sensor, celsius = line.strip().split(',')\n"
        "    return Reading(sensor=sensor, celsius=float(celsius))\n"
    ),
    REPORT: "def describe(reading):\n    return f'{reading.sensor}: {reading.celsius:.1f} °C'\n",
    "tests/test_climate.py": (
        "from climate.parse import parse_line\n\n\ndef test_old_line():\n"
        "    assert parse_line('hall,19.0').celsius == 19.0\n"
    ),
}
HUMID_READINGS = (
    "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Reading:\n"
    "    sensor: str\n    celsius: float\n    humidity: float | None = None\n"
)
HUMID_PARSE = (
    "from climate.readings import Reading\n\n\ndef parse_line(line):\n"
    "    sensor, celsius, *rest = line.strip().split(',')\n"
    "    humidity = float(rest[0]) if rest else None\n"
    "    return Reading(sensor=sensor, celsius=float(celsius), humidity=humidity)\n"
)
TICKET = TicketContext(
    key="HUM-1",
    summary="Keep the humidity the new gateways send",
    description="The new gateways send `kitchen,21.5,40`; parsing those log lines fails.",
    acceptance_criteria=(
        "- A log line with a third value (`kitchen,21.5,40`) parses into a Reading whose "
        "`humidity` is 40.0."
    ),
)
PLAN = Plan(
    version=1,
    summary="Keep the humidity on readings.",
    files=[PlannedFile(path=READINGS, action="modify", purpose="Add `humidity` to Reading.")],
    test_plan=["python -m pytest -q"],
    risks=[],
    markdown="# Plan",
)
CRITERIA_TEST = (
    "from climate.parse import parse_line\n\n\ndef test_humidity():\n"
    "    assert parse_line('kitchen,21.5,40').humidity == 40.0\n"
)


def failure(details: str) -> FailedTest:
    return FailedTest(
        test_id="tests/test_x.py::test_x", file="tests/test_x.py", message="E", details=details
    )


def test_a_failure_joins_the_source_file_its_traceback_ends_in(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", CLIMATE)
    inside = failure(f"tests/test_x.py:5: in test_x\n{PARSE}:6: ValueError")
    library = failure(f"{PARSE}:6: in parse_line\n/usr/lib/python3/json/decoder.py:3: KeyError")
    assert failing_sources([inside, library], [READINGS], repo) == [PARSE]
    assert failing_sources([inside], [PARSE], repo) == []
    assert failing_sources([failure("tests/test_x.py:5: AssertionError")], [], repo) == []
    assert failing_sources([failure("../outside.py:1: ValueError")], [], repo) == []


def test_the_source_files_the_ticket_points_to_beyond_the_plan(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", CLIMATE)
    related = related_sources(index_repository(repo), TICKET, [READINGS], repo)
    assert PARSE in related and READINGS not in related
    assert all(not p.startswith("tests/") for p in related)
    assert related_sources(None, TICKET, [READINGS], repo) == []


async def test_the_file_the_acceptance_tests_fail_in_is_written_in_the_first_revision(
    tmp_path: Path,
) -> None:
    repo = write_tree(tmp_path / "repo", CLIMATE)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    written: list[str] = []
    shown: list[str] = []

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "criteria_tests":
            shown.append(str(messages[-1].content))
            return file_answer(inputs["path"], CRITERIA_TEST)
        if task == "review":
            return verdict(True)
        written.append(inputs["path"])
        return file_answer(
            inputs["path"], HUMID_PARSE if inputs["path"] == PARSE else HUMID_READINGS
        )

    result = await implement_plan(
        team(handle), repo, TICKET, PLAN, None, tester=tester, max_revisions=2, example_tests=True
    )
    assert "`parse_line(line)`" in shown[0], "the criteria's writer is not shown the parser"
    assert PARSE in written[:2], written
    assert f"{PARSE}: joins the revision, the acceptance tests fail in it" in result.notes
    changes = {c.path: c.content for c in result.changes}
    assert changes[PARSE] == HUMID_PARSE and result.tests_passed
