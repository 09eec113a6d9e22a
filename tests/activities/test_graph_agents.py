"""The agent registry: every catalogued agent is a worker activity; inputs are checked; the
MVP tester merges revisions and picks the project's test command."""

from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from temporalio.exceptions import ApplicationError

from activities.graph_agents import agent_input
from activities.messages import PostCommentInput
from activities.mvp.agents import Project, Verdict, untouched
from activities.mvp.project import merge, project_test_command
from cli.commands import CommandError
from cli.graphs.runs import parse_inputs
from config import get_settings
from graphs.dsl.calls import AgentCall
from graphs.dsl.catalog import AGENTS, agent_queues
from graphs.schemas import TestReport
from worker import build_activities


def call(**inputs: object) -> AgentCall:
    return AgentCall(graph="g", step="s", idempotency_key="wf/run/s", input=inputs)


async def test_every_catalogued_agent_is_registered_on_its_queue() -> None:
    async with AsyncExitStack() as stack:
        sets = build_activities(get_settings(), stack)
    services = {f.__temporal_activity_definition.name for f in sets.services}  # type: ignore[attr-defined]
    models = {f.__temporal_activity_definition.name for f in sets.agents}  # type: ignore[attr-defined]
    queues = agent_queues("main", "agents")
    for name in AGENTS:
        assert name in (models if queues[name] == "agents" else services), name


def test_agent_input_fills_the_marker_and_names_bad_fields() -> None:
    comment = agent_input("jira_comment", PostCommentInput, call(key="DEMO-1", body="hi"))
    assert comment.marker == "wf/run/s"
    with pytest.raises(ApplicationError) as refused:
        agent_input("jira_comment", PostCommentInput, call(key="DEMO-1"))
    assert refused.value.type == "AgentInputError" and refused.value.non_retryable
    assert "agent jira_comment in step s" in str(refused.value) and "body" in str(refused.value)


def test_parse_inputs() -> None:
    assert parse_inputs(["a=1", "b=true", "c=hello world", "d="]) == {
        "a": 1, "b": True, "c": "hello world", "d": "",
    }  # fmt: skip
    with pytest.raises(CommandError, match="write it as NAME=VALUE"):
        parse_inputs(["nothing"])


def test_merge_keeps_the_latest_version_of_each_file() -> None:
    before = Project(files={"a.py": "1", "b.py": "1"}, revision=1)
    files, changed = merge(before, [{"path": "a.py", "content": "2"}, None, {"path": None}])
    assert (files, changed) == ({"a.py": "2", "b.py": "1"}, True)
    assert merge(before, [{"path": "b.py", "content": "1"}]) == (before.files, False)


def test_the_test_command_is_pytest_for_python_tests(tmp_path: Path) -> None:
    (tmp_path / "todo.py").write_text("x = 1\n")
    assert project_test_command(tmp_path) is None
    (tmp_path / "test_todo.py").write_text("def test_x():\n    assert True\n")
    assert project_test_command(tmp_path) == "python -m pytest -q"


def test_workers_leave_files_qa_did_not_name() -> None:
    failed = TestReport(passed=False, exit_code=1, output="")
    passed = TestReport(passed=True, exit_code=0, output="")
    qa = Verdict(
        passed=False,
        done=False,
        summary="",
        verdict="",
        fixes=[{"path": "a.py", "instruction": "x"}],
    )
    assert untouched("b.py", qa, passed) and not untouched("a.py", qa, passed)
    assert not untouched("b.py", qa, failed)  # failing tests: every file is looked at again
    assert not untouched("b.py", None, None)
