"""The MVP graph on the time-skipping server with the real manager, architect, workers, tester
and QA (the model is the fake server playing a todo-list team); only publishing is faked."""

import asyncio
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from temporalio import activity
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from activities.mvp.agents import MvpAgents
from activities.mvp.project import ProjectAgents
from activities.repo import Workspaces
from graphs.dsl import load_definition
from graphs.dsl.calls import AgentCall, AgentResult
from graphs.models import make_chat_model
from harness.model_server import FakeModelServer
from integrations.environments.build import Environments
from integrations.workspace.sandbox import Sandbox
from tests.support.fake_mvp import TODO_FIXED, MvpBrain, StubMvpBrain
from workflows.graph.messages import GraphInput, GraphStatusValue
from workflows.graph.workflow import GraphWorkflow
from workflows.registry import WORKFLOWS

DEADLINE_S = 120


@pytest.fixture(scope="module")
def model_server() -> Iterator[FakeModelServer]:
    with FakeModelServer(MvpBrain()) as server:
        yield server


async def run_mvp(
    env: WorkflowEnvironment, model: Any, prompt: str, workspaces: Workspaces | None = None
) -> tuple[Any, list[AgentCall]]:
    published: list[AgentCall] = []

    @activity.defn(name="forge_publish")
    async def publish(call: AgentCall) -> AgentResult:
        published.append(call)
        return AgentResult(output={"url": "http://forge/ticketsmith-bot/todo"})

    team = MvpAgents(model)
    # The graph is under test here, not the sandbox (tests/integrations/test_commands.py).
    environments = Environments(Path(tempfile.gettempdir()) / "mvp-envs", Sandbox(mode="none"))
    workspaces = workspaces or Workspaces(
        Path(tempfile.gettempdir()), None, "t", "t@example.com", environments
    )
    tester = ProjectAgents(None, workspaces)  # type: ignore[arg-type] # no forge: not publishing
    agents = [team.mvp_manager, team.mvp_architect, team.mvp_swe_worker, team.mvp_qa]
    queue = f"mvp-{uuid.uuid4()}"
    activities = [*agents, tester.mvp_tester, publish]
    names = ["mvp_manager", "mvp_architect", "mvp_swe_worker", "mvp_qa", "mvp_tester"]
    async with Worker(env.client, task_queue=queue, workflows=WORKFLOWS, activities=activities):
        result = await asyncio.wait_for(
            env.client.execute_workflow(
                GraphWorkflow.run,
                GraphInput(
                    definition=load_definition("mvp"),
                    inputs={"prompt": prompt, "slug": "todo"},
                    agent_queues=dict.fromkeys([*names, "forge_publish"], queue),
                ),
                id=f"graph-mvp-{uuid.uuid4()}",
                task_queue=queue,
            ),
            DEADLINE_S,
        )
    return result, published


async def test_mvp_passes_after_one_qa_revision(
    time_skipping_env: WorkflowEnvironment, model_server: FakeModelServer
) -> None:
    model = make_chat_model("openai", base_url=model_server.base_url, model="fake")
    result, published = await run_mvp(time_skipping_env, model, "Build an MVP for a todo app")
    assert result.status == GraphStatusValue.COMPLETED
    project = result.state["project"]
    assert result.message.startswith("Passed at revision 2"), project
    assert project["revision"] == 2
    assert project["files"]["todo.py"] == TODO_FIXED
    assert project["tests"]["passed"] is True
    assert "2 passed" in project["tests"]["output"]
    assert project["smoke"]["passed"] is True and "['milk']" in project["smoke"]["output"]
    assert result.state["qa"]["working"] is True and result.state["qa"]["problems"] == []
    assert project["stray_files"] == []
    assert result.checkpoints == ["accepted", "designed", "reviewed"]
    assert len(published) == 2 and published[-1].input["files"]["todo.py"] == TODO_FIXED
    assert result.tokens > 0


async def test_non_development_request_ends_with_the_managers_reason(
    time_skipping_env: WorkflowEnvironment, model_server: FakeModelServer
) -> None:
    model = make_chat_model("openai", base_url=model_server.base_url, model="fake")
    result, published = await run_mvp(time_skipping_env, model, "Write me an essay on tea")
    assert result.status == GraphStatusValue.COMPLETED
    assert result.message == "This asks for an essay, not for software."
    assert "architect" not in result.state and not published


async def test_offline_model_runs_to_the_end_and_says_a_model_is_needed(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    result, published = await run_mvp(
        time_skipping_env, make_chat_model("offline"), "Build an MVP for a todo-list app"
    )
    assert result.status == GraphStatusValue.COMPLETED
    assert "A language model is needed to write the code" in result.message
    assert result.state["manager"]["produced_offline"] is True
    assert result.state["revision"] == 1
    assert result.state["project"]["files"] == {}
    assert [call.input["files"] for call in published] == [{}]  # nothing to push


async def test_a_project_that_does_nothing_is_not_passed_and_says_what_is_missing(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    with FakeModelServer(StubMvpBrain()) as server:
        model = make_chat_model("openai", base_url=server.base_url, model="fake")
        result, published = await run_mvp(time_skipping_env, model, "Build a todo-list app")
    qa = result.state["qa"]
    assert result.status == GraphStatusValue.COMPLETED
    assert not result.message.startswith("Passed") and qa["passed"] is False, result.message
    assert qa["working"] is False and "not working yet" in qa["verdict"]
    problems = "\n".join(qa["problems"])
    assert "tests/test_app.py::test_add asserts nothing" in problems
    assert "tests/test_ui.py holds no test" in problems
    assert "todo/__main__.py: main() is a stub (pass)" in problems
    assert "todo/database.py is reached neither from the entry point nor a test" in problems
    assert "todo/ui.py opens a desktop window (tkinter)" in problems
    assert "no test checks `Database.add(title: str)`" in problems
    smoke = result.state["project"]["smoke"]
    assert smoke["ran"] is True and smoke["command"] == 'python -m todo add "milk"'
    assert smoke["passed"] is False and "printed nothing" in problems
    assert published and all(call.input["qa"]["passed"] is False for call in published)
