"""The graph workflow on the time-skipping server with fake agents."""

import asyncio

import pytest
from temporalio.client import WorkflowFailureError, WorkflowUpdateFailedError
from temporalio.testing import WorkflowEnvironment

from graphs.dsl import GraphBuilder
from tests.workflows.graph_fakes import (
    DEADLINE_S,
    SCENARIOS,
    FakeAgents,
    running_graph,
    wait_for_status,
)
from workflows.graph.messages import GraphInputMessage, GraphStatusValue
from workflows.graph.workflow import GraphWorkflow


async def run_scenario(env: WorkflowEnvironment, name: str) -> tuple[object, FakeAgents, object]:
    scenario = SCENARIOS[name]
    agents = FakeAgents(scenario.failures)
    async with running_graph(env.client, agents, scenario.definition, scenario.inputs) as handle:
        result = await scenario.drive(handle)
        status = await handle.query(GraphWorkflow.status)
    return result, agents, status


async def test_sequence_runs_in_order_with_checkpoint(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    result, agents, status = await run_scenario(time_skipping_env, "graph-sequence")
    assert result.status == GraphStatusValue.COMPLETED
    assert [c.step for c in agents.calls["echo"]] == ["first", "second"]
    assert agents.calls["echo"][0].input == {"topic": "docs"}
    assert agents.calls["echo"][1].input == {"before": ["topic"]}
    assert result.state["second"] == {"seen": ["before"], "n": 2}
    assert result.checkpoints == ["halfway"]
    assert [s.step for s in status.steps] == ["first", "halfway", "second"]
    assert all(s.status == "completed" for s in status.steps)


async def test_parallel_branches_merge_into_one_state(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    result, agents, _ = await run_scenario(time_skipping_env, "graph-parallel")
    assert result.state["left"] == {"seen": [], "side": "left"}
    assert result.state["right"] == {"seen": [], "side": "right"}
    assert result.state["right_again"] == {"seen": ["right"]}
    assert result.state["after"]["seen"] == ["left", "right", "right_again"]
    assert len(agents.calls["echo"]) == 4


@pytest.mark.parametrize(("name", "taken", "skipped"), [
    ("graph-conditional-then", "fix", "build"),
    ("graph-conditional-else", "build", "fix"),
])  # fmt: skip
async def test_conditional_takes_one_branch(
    time_skipping_env: WorkflowEnvironment, name: str, taken: str, skipped: str
) -> None:
    result, agents, _ = await run_scenario(time_skipping_env, name)
    assert [c.step for c in agents.calls["echo"]] == [taken]
    assert taken in result.state and skipped not in result.state


async def test_retry_then_success(time_skipping_env: WorkflowEnvironment) -> None:
    result, agents, _ = await run_scenario(time_skipping_env, "graph-retry")
    assert result.status == GraphStatusValue.COMPLETED
    assert len(agents.calls["flaky"]) == 3
    assert result.state["unstable"] == "recovered"


async def test_retries_exhausted_run_the_error_handler(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    result, agents, status = await run_scenario(time_skipping_env, "graph-error-handler")
    assert len(agents.calls["flaky"]) == 2
    assert agents.calls["report"][0].input == {"error": "flaky is down"}
    assert result.state["error"]["step"] == "unstable"
    assert result.state["error"]["type"] == "AgentDown"
    assert result.state["after"]["seen"][0] == "error"
    assert [s.status for s in status.steps] == ["handled", "completed", "completed"]


async def test_unhandled_failure_fails_the_graph_naming_the_step(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    definition = GraphBuilder("unhandled").agent("flaky", name="unstable").with_retry(2).build()
    agents = FakeAgents({"flaky": 5})
    async with running_graph(time_skipping_env.client, agents, definition) as handle:
        with pytest.raises(WorkflowFailureError) as failure:
            await asyncio.wait_for(handle.result(), DEADLINE_S)
        status = await handle.query(GraphWorkflow.status)
    assert "Step unstable failed: flaky is down" in str(failure.value.cause)
    assert status.status == GraphStatusValue.FAILED


async def test_human_wait_satisfied(time_skipping_env: WorkflowEnvironment) -> None:
    result, agents, _ = await run_scenario(time_skipping_env, "graph-wait-approved")
    assert result.status == GraphStatusValue.COMPLETED
    assert result.state["approval"] == {"approved": True}
    assert [c.step for c in agents.calls["echo"]] == ["released"]


async def test_human_wait_expires(time_skipping_env: WorkflowEnvironment) -> None:
    result, agents, _ = await run_scenario(time_skipping_env, "graph-wait-expired")
    assert result.status == GraphStatusValue.EXPIRED
    assert "no input 'approval' arrived" in result.message
    assert not agents.calls


async def test_update_refused_when_not_waiting_for_it(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    scenario = SCENARIOS["graph-wait-approved"]
    agents = FakeAgents()
    async with running_graph(time_skipping_env.client, agents, scenario.definition) as handle:
        waiting = await wait_for_status(handle, lambda s: s.waiting_for == "approval")
        assert waiting.status == GraphStatusValue.AWAITING_INPUT
        with pytest.raises(WorkflowUpdateFailedError) as refused:
            await handle.execute_update(
                GraphWorkflow.submit_input, GraphInputMessage(name="budget", value=1)
            )
        assert "waiting for 'approval'" in str(refused.value.cause)
        await handle.signal(
            GraphWorkflow.graph_input, GraphInputMessage(name="approval", value={"approved": False})
        )
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)
    assert (result.status, result.message) == (GraphStatusValue.COMPLETED, "not approved")


async def test_unknown_agent_refused_before_any_step(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    definition = GraphBuilder("unknown").agent("echo").agent("ghost").build()
    agents = FakeAgents()
    async with running_graph(time_skipping_env.client, agents, definition) as handle:
        with pytest.raises(WorkflowFailureError) as failure:
            await asyncio.wait_for(handle.result(), DEADLINE_S)
    assert "'ghost' is not a registered agent" in str(failure.value.cause)
    assert not agents.calls


async def test_foreach_and_bounded_loop(time_skipping_env: WorkflowEnvironment) -> None:
    result, agents, _ = await run_scenario(time_skipping_env, "graph-foreach-loop")
    assert len(agents.calls["echo"]) == 6
    assert sorted(c.input["f"] for c in agents.calls["echo"][:3]) == ["a.py", "b.py", "c.py"]
    assert result.state["revision"] == 2
    assert result.state["written"] == [{"seen": ["f"]}] * 3
    assert result.state["count"] == 3
    keys = {c.idempotency_key for c in agents.calls["echo"]}
    assert len(keys) == 6


async def test_builder_definition_runs_like_its_yaml(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    built = (
        GraphBuilder("loops", inputs=["files"])
        .loop(
            lambda b: b.foreach(
                "files",
                lambda d: d.agent("echo", name="worker", input={"f": "file"}),
                "written",
                as_="file",
                max_parallel=2,
                name="workers",
            ),
            max_iterations=3,
            counter="revision",
            until={"path": "revision", "equals": 2},
            name="revisions",
        )
        .agent("count", name="count", input={"items": "written"})
        .build()
    )
    assert built == SCENARIOS["graph-foreach-loop"].definition


async def test_cancel_while_waiting_ends_cancelled(time_skipping_env: WorkflowEnvironment) -> None:
    scenario = SCENARIOS["graph-wait-approved"]
    async with running_graph(time_skipping_env.client, FakeAgents(), scenario.definition) as handle:
        await wait_for_status(handle, lambda s: s.waiting_for == "approval")
        await handle.cancel()
        with pytest.raises(WorkflowFailureError):
            await asyncio.wait_for(handle.result(), DEADLINE_S)
        described = await handle.describe()
    attrs = {k.name: v for k, v in described.typed_search_attributes}
    assert attrs["Status"] == "cancelled"


async def test_steps_of_the_same_name_have_their_own_idempotency_keys(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    definition = GraphBuilder("twice").agent("echo").agent("echo").build()
    agents = FakeAgents()
    async with running_graph(time_skipping_env.client, agents, definition) as handle:
        await asyncio.wait_for(handle.result(), DEADLINE_S)
    first, second = (call.idempotency_key for call in agents.calls["echo"])
    assert first != second and first.startswith(handle.id)
