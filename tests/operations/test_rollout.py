"""Rolling out new code on the dev server: two Worker Deployment Versions of the worker in this
process. Tickets move to the new version at a workflow task after it is made current
(auto-upgrade), implementations end on the version they started on (pinned), new runs start on
the new version, `status` says which version a ticket runs on, and the old version drains."""

import asyncio
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from datetime import timedelta
from typing import Any

import pytest
from google.protobuf.json_format import MessageToDict
from temporalio import activity, workflow
from temporalio.api.deployment.v1 import WorkerDeploymentVersion
from temporalio.api.enums.v1 import VersionDrainageStatus
from temporalio.api.workflowservice.v1 import (
    DescribeWorkerDeploymentVersionRequest,
    SetWorkerDeploymentCurrentVersionRequest,
)
from temporalio.client import Client, WorkflowHandle
from temporalio.common import SearchAttributeKey, VersioningBehavior
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.service import RPCError
from temporalio.testing import WorkflowEnvironment

with workflow.unsafe.imports_passed_through():  # the sandbox re-imports this module
    from cli.status.over_grpc import shown_status
    from cli.status.over_http import ticket_status
    from cli.status.render import render_status, to_text
    from cli.status.worker_version import worker_version
    from config import ROOT, Settings
    from embedded.services import SEARCH_ATTRIBUTES
    from graphs.dsl.builder import GraphBuilder
    from graphs.schemas import Plan, TicketContext
    from harness.processes import free_port, guard_children, until, venv_binary
    from tickets.launch import ticket_input
    from worker import ActivitySets, build_activities, build_workers, run_workers
    from workflows.graph.messages import GraphInput
    from workflows.registry import WORKFLOWS
    from workflows.ticket.messages import ImplementationInput
    from workflows.versioning import VERSIONED

DRAINING = VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINING
DRAINED = VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINED
WAIT_S = 30


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[tuple[Client, Settings]]:
    """A dev server that checks drainage every second (the default is minutes)."""
    http_port = free_port()
    names = ("VersionDrainageStatusVisibilityGracePeriod", "VersionDrainageStatusRefreshInterval")
    drainage = [f'matching.wv.{name}="1s"' for name in names]
    env = await WorkflowEnvironment.start_local(
        data_converter=pydantic_data_converter,
        dev_server_existing_path=venv_binary("temporal"),
        dev_server_extra_args=[
            "--headless", "--http-port", str(http_port),
            *(arg for value in drainage for arg in ("--dynamic-config-value", value)),
        ],
        search_attributes=[SearchAttributeKey.for_keyword(n) for n in SEARCH_ATTRIBUTES],
    )  # fmt: skip
    guard_children()
    address = env.client.service_client.config.target_host
    endpoints = Settings(
        temporal_address=address, temporal_http_port=http_port, temporal_env_config=False,
        status_query_seconds=10, _env_file=None,
    )  # type: ignore[call-arg]  # fmt: skip
    async with env:
        yield env.client, endpoints


def build_now() -> str:
    """The build of the worker running this workflow task."""
    version = workflow.info().get_current_deployment_version()
    return version.build_id if version else "unversioned"


class Steps:
    """A run that takes a step for each `step` signal, recording the build each step ran on."""

    def __init__(self) -> None:
        self.builds: list[str] = []
        self.asked = 0
        self.done = False

    @workflow.signal
    def step(self) -> None:
        self.asked += 1

    @workflow.signal
    def finish(self) -> None:
        self.done = True

    @workflow.query
    def ran_on(self) -> list[str]:
        return self.builds

    async def steps(self) -> None:
        self.builds.append(build_now())
        while not self.done:
            await workflow.wait_condition(lambda: self.done or self.asked >= len(self.builds))
            self.builds.append(build_now())


@workflow.defn(name="TicketWorkflow", versioning_behavior=VersioningBehavior.AUTO_UPGRADE)
class TicketProbe(Steps):
    """A ticket waiting on people between steps, declared as the real one is."""

    @workflow.query
    def status(self) -> dict[str, Any]:
        return {"key": workflow.info().workflow_id.removeprefix("ticket-"), "phase": "refinement",
                "status": "awaiting_answers", "message": "Waiting for answers"}  # fmt: skip

    @workflow.run
    async def run(self) -> list[str]:
        await self.steps()
        return self.builds


@workflow.defn(name="ImplementationWorkflow", versioning_behavior=VersioningBehavior.PINNED)
class ImplementationProbe(Steps):
    """An implementation, declared as the real one is, ending with an agent activity."""

    @workflow.run
    async def run(self, agent_queue: str) -> list[str]:
        await self.steps()
        stamp = await workflow.execute_activity(
            "stamp", task_queue=agent_queue, start_to_close_timeout=timedelta(seconds=30)
        )
        return [*self.builds, f"activity on {stamp}"]


class Stamp:
    """The agent activity of one build: it answers with its build."""

    def __init__(self, build: str) -> None:
        self.build = build

    @activity.defn(name="stamp")
    async def stamp(self) -> str:
        return self.build


def versioned(queue: str, deployment: str, build: str) -> Settings:
    """A worker's settings as one release of it sets them."""
    return Settings(
        task_queue=queue, agent_task_queue=f"{queue}-agents", graceful_shutdown_seconds=0,
        worker_versioning=True, worker_deployment_name=deployment, worker_build_id=build,
        metrics_port=0, _env_file=None,
    )  # type: ignore[call-arg]  # fmt: skip


class Release:
    """One version's workers, as the real worker builds them, running in this process."""

    def __init__(self, client: Client, queue: str, deployment: str, build: str) -> None:
        settings = versioned(queue, deployment, build)
        activities = ActivitySets([], [Stamp(build).stamp])
        workers = build_workers(client, settings, activities, [TicketProbe, ImplementationProbe])
        self._stop = asyncio.Event()
        self._running = asyncio.create_task(run_workers(workers, self._stop))

    async def stop(self) -> None:
        """Stop polling and wait for the workers to shut down (again: a no-op)."""
        self._stop.set()
        await asyncio.wait_for(self._running, WAIT_S)


async def make_current(client: Client, deployment: str, build: str) -> None:
    """Make the version current once the server has seen its workers poll."""
    request = SetWorkerDeploymentCurrentVersionRequest(
        namespace=client.namespace, deployment_name=deployment, build_id=build
    )

    async def made() -> bool:
        try:
            await client.workflow_service.set_worker_deployment_current_version(request)
        except RPCError:  # the version is not known yet: its workers have not polled
            return False
        return True

    await until(made, WAIT_S, f"{deployment}.{build} to become current")


async def drainage(client: Client, deployment: str, build: str) -> int:
    """The version's drainage status: draining while a pinned run is open on it, then drained."""
    request = DescribeWorkerDeploymentVersionRequest(
        namespace=client.namespace,
        deployment_version=WorkerDeploymentVersion(deployment_name=deployment, build_id=build),
    )
    described = await client.workflow_service.describe_worker_deployment_version(request)
    return described.worker_deployment_version_info.drainage_info.status


async def steps_taken(handle: WorkflowHandle[Any, Any], count: int) -> list[str]:
    """The builds a run's steps ran on, once it has taken `count`."""

    async def taken() -> list[str] | None:
        builds: list[str] = await handle.query("ran_on")
        return builds if len(builds) >= count else None

    return await until(taken, WAIT_S, f"{handle.id} to take {count} steps")


async def step(handle: WorkflowHandle[Any, Any]) -> list[str]:
    """One more step; the builds all its steps ran on."""
    before = len(await handle.query("ran_on"))
    await handle.signal("step")
    return await steps_taken(handle, before + 1)


async def on_version(client: Client, workflow_id: str) -> str | None:
    """The version a run is on, as `status` words it."""
    described = await client.get_workflow_handle(workflow_id).describe()
    info = MessageToDict(described.raw_description.workflow_execution_info)
    return worker_version(info)


async def test_a_release_moves_tickets_keeps_implementations_and_drains_the_old_version(
    server: tuple[Client, Settings],
) -> None:
    client, endpoints = server
    queue, deployment = f"rollout-{uuid.uuid4()}", f"ticketsmith-{uuid.uuid4().hex[:8]}"
    async with AsyncExitStack() as stack:
        a = Release(client, queue, deployment, "A")
        stack.push_async_callback(a.stop)
        await make_current(client, deployment, "A")
        ticket, implementation = await start_pair(client, queue, "OLD-1")
        assert await steps_taken(ticket, 1) == ["A"]
        assert await steps_taken(implementation, 1) == ["A"]
        assert await on_version(client, ticket.id) == f"{deployment}.A (auto-upgrade)"

        b = Release(client, queue, deployment, "B")
        stack.push_async_callback(b.stop)
        await make_current(client, deployment, "B")

        # The new current version reaches the task queue shortly after: the ticket moves at the
        # first of its workflow tasks dispatched after that.
        async def moved() -> list[str] | None:
            builds = await step(ticket)
            return builds if builds[-1] == "B" else None

        builds = await until(moved, WAIT_S, "the ticket to move to B")
        assert builds[0] == "A" and "unversioned" not in builds
        assert set(await step(implementation)) == {"A"}  # pinned: routing moved, it did not
        assert await on_version(client, implementation.id) == f"{deployment}.A (pinned)"

        fresh_ticket, fresh_implementation = await start_pair(client, queue, "NEW-1")
        assert await steps_taken(fresh_ticket, 1) == ["B"]
        assert await steps_taken(fresh_implementation, 1) == ["B"]

        # `starter.py status` names the version, over HTTP and over gRPC alike (the HTTP read
        # blocks, and the workers answering its query run on this event loop).
        shown = await asyncio.to_thread(ticket_status, endpoints, "OLD-1")
        assert shown["worker_version"] == f"{deployment}.B (auto-upgrade)"
        text = to_text(render_status(shown, "u"))
        assert f"  worker version: {deployment}.B (auto-upgrade)\n" in text
        over_grpc = await shown_status(client, "OLD-1", timedelta(seconds=10))
        assert over_grpc["worker_version"] == shown["worker_version"]

        # A drains once the implementation pinned to it has ended; its activities ran on A.
        assert await drainage(client, deployment, "A") == DRAINING
        assert await finish(implementation) == ["A", "A", "A", "activity on A"]
        assert await finish(fresh_implementation) == ["B", "B", "activity on B"]

        async def drained() -> bool:
            return await drainage(client, deployment, "A") == DRAINED

        await until(drained, WAIT_S, f"{deployment}.A to drain")
        await a.stop()
        for handle in (ticket, fresh_ticket):  # nothing needs A any more
            assert (await finish(handle))[-1] == "B"


async def start_pair(
    client: Client, queue: str, key: str
) -> tuple[WorkflowHandle[Any, list[str]], WorkflowHandle[Any, list[str]]]:
    """A ticket and an implementation, started as the starter and the ticket start them."""
    ticket = await client.start_workflow(TicketProbe.run, id=f"ticket-{key}", task_queue=queue)
    implementation = await client.start_workflow(
        ImplementationProbe.run, f"{queue}-agents", id=f"{queue}-{key}", task_queue=queue
    )
    return ticket, implementation


async def finish(handle: WorkflowHandle[Any, list[str]]) -> list[str]:
    """End a run; what it returned."""
    await handle.signal("finish")
    return await asyncio.wait_for(handle.result(), WAIT_S)


async def test_the_worker_runs_each_workflow_type_as_it_declares(
    server: tuple[Client, Settings],
) -> None:
    client, _ = server
    queue, deployment = f"declared-{uuid.uuid4()}", f"declared-{uuid.uuid4().hex[:8]}"
    settings = versioned(queue, deployment, "1")
    async with AsyncExitStack() as stack:
        workers = build_workers(client, settings, build_activities(settings, stack))
        assert workers[0].config()["workflows"] == [VERSIONED[cls] for cls in WORKFLOWS]
        assert {w.config()["deployment_config"] is not None for w in workers} == {True}
        stop = asyncio.Event()
        running = asyncio.create_task(run_workers(workers, stop))
        await make_current(client, deployment, "1")
        plan = Plan(version=1, summary="Add power", files=[], test_plan=[], risks=[], markdown="")
        implementation = ImplementationInput(
            key="DEMO-9", project=ticket_input("DEMO-9", settings).project,
            branch="ticketsmith/DEMO-9", plan=plan,
            ticket=TicketContext(key="DEMO-9", summary="Add power", description="power(a, b)"),
        )  # fmt: skip
        graph = GraphInput(definition=GraphBuilder("probe").wait("go", "1h").build())
        runs = {
            "TicketWorkflow": ticket_input("DEMO-9", settings),
            "ImplementationWorkflow": implementation,
            "GraphWorkflow": graph,
        }
        expected = {
            "TicketWorkflow": "auto-upgrade",
            "ImplementationWorkflow": "pinned",
            "GraphWorkflow": "auto-upgrade",
        }
        try:
            for name, inp in runs.items():
                handle = await client.start_workflow(
                    name, inp, id=f"{queue}-{name}", task_queue=queue,
                    execution_timeout=timedelta(minutes=2),
                )  # fmt: skip

                async def versioned_run(workflow_id: str = handle.id) -> str | None:
                    return await on_version(client, workflow_id)

                shown = await until(versioned_run, WAIT_S, f"{name}'s first workflow task")
                assert shown == f"{deployment}.1 ({expected[name]})", name
                await handle.terminate("test over")
        finally:
            stop.set()
            await asyncio.wait_for(running, WAIT_S)


async def test_unversioned_unless_set(server: tuple[Client, Settings]) -> None:
    client, _ = server
    settings = Settings(task_queue=f"plain-{uuid.uuid4()}", metrics_port=0, _env_file=None)  # type: ignore[call-arg]
    async with AsyncExitStack() as stack:
        workers = build_workers(client, settings, build_activities(settings, stack))
    assert workers[0].config()["workflows"] == WORKFLOWS
    assert [w.config()["deployment_config"] for w in workers] == [None, None]


def test_the_worker_refuses_to_start_versioned_without_a_deployment_name() -> None:
    env = {name: value for name, value in os.environ.items() if "WORKER_DEPLOYMENT" not in name}
    env |= {"TICKETSMITH_WORKER_VERSIONING": "true", "TICKETSMITH_WORKER_BUILD_ID": "7"}
    run = subprocess.run(
        [sys.executable, "worker.py"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("worker not started: TICKETSMITH_WORKER_VERSIONING=true needs ")
    assert "TICKETSMITH_WORKER_DEPLOYMENT_NAME" in last and "BUILD_ID" not in last
