"""Fake graph agents and the scenarios the graph workflow is tested (and recorded) with."""

import asyncio
import time
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from temporalio import activity
from temporalio.client import Client, WorkflowHandle
from temporalio.exceptions import ApplicationError
from temporalio.worker import Worker

from graphs.dsl import GraphDefinition, load_definition_text
from graphs.dsl.calls import AgentCall, AgentResult
from workflows.graph.messages import GraphInput, GraphInputMessage, GraphResult, GraphStatus
from workflows.graph.workflow import GraphWorkflow
from workflows.registry import WORKFLOWS

DEADLINE_S = 30
Handle = WorkflowHandle[GraphWorkflow, GraphResult]


class FakeAgents:
    """Agents that echo their input, count calls, and fail where told to."""

    def __init__(self, failures: dict[str, int] | None = None) -> None:
        self.calls: dict[str, list[AgentCall]] = defaultdict(list)
        self.failures = dict(failures or {})

    def agent(self, name: str, answer: Callable[[AgentCall], Any]) -> Callable[..., Any]:
        @activity.defn(name=name)
        async def run(call: AgentCall) -> AgentResult:
            self.calls[name].append(call)
            if self.failures.get(name, 0) > 0:
                self.failures[name] -= 1
                raise ApplicationError(f"{name} is down", type="AgentDown")
            return AgentResult(output=answer(call), tokens=1)

        return run

    def all(self) -> list[Callable[..., Any]]:
        return [
            self.agent("echo", lambda c: {"seen": sorted(c.input), **c.params}),
            self.agent("classify", lambda c: {"kind": c.params.get("kind", "feature")}),
            self.agent("flaky", lambda c: "recovered"),
            self.agent("report", lambda c: f"handled {c.input.get('error')}"),
            self.agent("count", lambda c: len(c.input.get("items") or [])),
        ]

    def names(self) -> list[str]:
        return ["echo", "classify", "flaky", "report", "count"]


@asynccontextmanager
async def running_graph(
    client: Client,
    agents: FakeAgents,
    definition: GraphDefinition,
    inputs: dict[str, Any] | None = None,
    workflow_id: str | None = None,
    task_queue: str | None = None,
) -> AsyncIterator[Handle]:
    """A worker with the fake agents and one started graph."""
    queue = task_queue or f"graph-{uuid.uuid4()}"
    async with Worker(client, task_queue=queue, workflows=WORKFLOWS, activities=agents.all()):
        handle = await client.start_workflow(
            GraphWorkflow.run,
            GraphInput(
                definition=definition,
                inputs=inputs or {},
                agent_queues=dict.fromkeys(agents.names(), queue),
            ),
            id=workflow_id or f"graph-{definition.name}-{uuid.uuid4()}",
            task_queue=queue,
        )
        yield handle


async def wait_for_status(handle: Handle, check: Callable[[GraphStatus], bool]) -> GraphStatus:
    """Query the status until `check` holds, failing after a deadline."""
    deadline = time.monotonic() + DEADLINE_S
    current = None
    while time.monotonic() < deadline:
        current = await handle.query(GraphWorkflow.status)
        if check(current):
            return current
        await asyncio.sleep(0.05)
    raise AssertionError(f"the graph status never satisfied the check; last: {current}")


def graph(text: str) -> GraphDefinition:
    return load_definition_text(text, "test graph")


SEQUENCE = graph("""
name: sequence
inputs: [topic]
steps:
  - {name: first, agent: echo, input: {topic: topic}}
  - {checkpoint: halfway}
  - {name: second, agent: echo, input: {before: first.seen}, params: {n: 2}}
""")
PARALLEL = graph("""
name: parallel
steps:
  - parallel:
      - {name: left, agent: echo, params: {side: left}}
      - sequence:
          - {name: right, agent: echo, params: {side: right}}
          - {name: right_again, agent: echo}
  - {name: after, agent: echo}
""")
CONDITIONAL = graph("""
name: conditional
inputs: [kind]
steps:
  - {name: classified, agent: classify, input: {}, params: {kind: bug}}
  - if: {path: kind, in: [bug, incident]}
    then: [{name: fix, agent: echo}]
    else: [{name: build, agent: echo}]
""")
RETRY = graph("""
name: retry
steps:
  - name: unstable
    agent: flaky
    retry: {attempts: 3, initial_interval: 1s, backoff: 2}
    timeout: 30s
""")
HANDLED = graph("""
name: handled
steps:
  - name: unstable
    agent: flaky
    retry: {attempts: 2, initial_interval: 1s}
    on_error: [{name: reported, agent: report, input: {error: error.message}}]
  - {name: after, agent: echo}
""")
WAIT = graph("""
name: approval
steps:
  - {wait: approval, timeout: 1h, prompt: "Approve the release?"}
  - if: {path: approval.approved, equals: true}
    then: [{name: released, agent: echo}]
    else: [{end: not approved}]
""")

LOOPS = graph("""
name: loops
inputs: [files]
steps:
  - name: revisions
    loop:
      - name: workers
        foreach: files
        as: file
        max_parallel: 2
        do: [{name: worker, agent: echo, input: {f: file}}]
        output: written
    max_iterations: 3
    counter: revision
    until: {path: revision, equals: 2}
  - {name: count, agent: count, input: {items: written}}
""")


@dataclass
class Scenario:
    """One recorded run: a graph, its inputs, failures to inject, and how to drive it."""

    definition: GraphDefinition
    inputs: dict[str, Any]
    failures: dict[str, int]
    drive: Callable[[Handle], Awaitable[Any]]


async def just_finish(handle: Handle) -> Any:
    return await asyncio.wait_for(handle.result(), DEADLINE_S)


async def approve(handle: Handle) -> Any:
    await wait_for_status(handle, lambda s: s.waiting_for == "approval")
    await handle.execute_update(
        GraphWorkflow.submit_input,
        GraphInputMessage(name="approval", value={"approved": True}, author="bob"),
    )
    return await asyncio.wait_for(handle.result(), DEADLINE_S)


SCENARIOS: dict[str, Scenario] = {
    "graph-sequence": Scenario(SEQUENCE, {"topic": "docs"}, {}, just_finish),
    "graph-parallel": Scenario(PARALLEL, {}, {}, just_finish),
    "graph-conditional-then": Scenario(CONDITIONAL, {"kind": "bug"}, {}, just_finish),
    "graph-conditional-else": Scenario(CONDITIONAL, {"kind": "feature"}, {}, just_finish),
    "graph-retry": Scenario(RETRY, {}, {"flaky": 2}, just_finish),
    "graph-error-handler": Scenario(HANDLED, {}, {"flaky": 5}, just_finish),
    "graph-wait-approved": Scenario(WAIT, {}, {}, approve),
    "graph-wait-expired": Scenario(WAIT, {}, {}, just_finish),
    "graph-foreach-loop": Scenario(LOOPS, {"files": ["a.py", "b.py", "c.py"]}, {}, just_finish),
}
