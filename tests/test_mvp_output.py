"""What `starter.py mvp` writes and prints: files per revision, checkpoints, the final report."""

from pathlib import Path

from cli.graphs.mvp_run import ProjectWriter, report
from llm.cost import ModelCost
from workflows.graph.messages import GraphResult, GraphStatus, GraphStatusValue

LINK = "http://ui/history"


def result(state: dict, message: str = "done") -> GraphResult:
    return GraphResult(
        name="mvp", status=GraphStatusValue.COMPLETED, message=message, state=state,
        checkpoints=[], tokens=1234, cost=ModelCost(input_tokens=1000, output_tokens=234),
    )  # fmt: skip


def test_writer_writes_each_revision_once_and_says_checkpoints(tmp_path: Path) -> None:
    said: list[str] = []
    writer = ProjectWriter(tmp_path / "todo", said.append)
    first = {"project": {"revision": 1, "files": {"a.py": "1", "../x": "no"}, "tests": None}}
    writer.follow(GraphStatus(name="mvp", checkpoints=["accepted"], state=first))
    writer.follow(GraphStatus(name="mvp", checkpoints=["accepted", "designed"], state=first))
    second = {"project": {"revision": 2, "files": {"a.py": "2"}, "tests": {"passed": True}}}
    writer.update(second)
    assert (tmp_path / "todo" / "a.py").read_text() == "2"
    assert not (tmp_path / "x").exists()
    assert said == [
        "accepted: the manager took the request",
        f"revision 1: 1 files in {tmp_path / 'todo'}; tests no tests ran",
        "designed: the architect planned the files",
        f"revision 2: 1 files in {tmp_path / 'todo'}; tests passed",
    ]


def test_report_of_a_finished_project(tmp_path: Path) -> None:
    state = {
        "manager": {"development": True},
        "project": {
            "revision": 2,
            "files": {"a.py": "x"},
            "test_command": "python -m pytest -q",
            "tests": {"passed": False, "exit_code": 1, "environment_error": "uv failed"},
        },
        "qa": {"verdict": "Not passed after 15 revisions (the limit): no"},
        "publish": {"url": "http://forge/ticketsmith-bot/todo"},
    }
    text = report(result(state), 12.34, tmp_path, LINK)
    assert text.splitlines() == [
        "QA verdict: Not passed after 15 revisions (the limit): no",
        "Tests (`python -m pytest -q`): failed (exit code 1)",
        "  the environment could not be built: uv failed",
        f"Files: 1 in {tmp_path}",
        "Repository: http://forge/ticketsmith-bot/todo",
        "Revisions: 2",
        "Model tokens: 1,234 (1,000 in / 234 out)",
        "Cost: $0.00",
        "Time: 12.3s",
        LINK,
    ]


def test_report_of_a_request_that_is_not_development(tmp_path: Path) -> None:
    state = {"manager": {"development": False, "reason": "An essay."}}
    text = report(result(state, "An essay."), 1.0, tmp_path, LINK)
    assert text == f"Not a development request: An essay.\n{LINK}"


def test_report_of_a_project_that_does_not_work_says_what_is_missing(tmp_path: Path) -> None:
    state = {
        "manager": {"development": True},
        "project": {
            "revision": 3, "files": {"a.py": "x"}, "test_command": "python -m pytest -q",
            "tests": {"passed": True, "exit_code": 0},
            "smoke": {"command": "python -m a", "ran": True, "passed": False, "exit_code": 1,
                      "output": "Traceback\nNameError: x"},
        },
        "qa": {"verdict": "Not passed: revision 3 changed nothing; not working yet: a stub",
               "working": False, "problems": ["a.py: main() is a stub (pass)"]},
        "publish": {"url": "http://forge/bot/a", "draft": True},
    }  # fmt: skip
    lines = report(result(state), 1.0, tmp_path, LINK).splitlines()
    assert lines[:5] == [
        "QA verdict: Not passed: revision 3 changed nothing; not working yet: a stub",
        "Working: NO, what is missing:",
        "  - a.py: main() is a stub (pass)",
        "Smoke run (`python -m a`): failed (exit code 1)",
        "  | Traceback",
    ]
    assert "Repository: http://forge/bot/a (a draft: not working yet)" in lines
