"""How each workflow type moves between Worker Deployment Versions, for workers with versioning on.

Each class here is the workflow of the same name, declaring its versioning behaviour. The SDK
sends a declared behaviour with every workflow task, and the server refuses it from a worker
without versioning, so unversioned workers register the plain classes (workflows/registry.py).

- TicketWorkflow, AUTO_UPGRADE: a ticket waits days for answers, approvals and reviews; pinned,
  every release would keep its old workers running until its last ticket ends. It moves to the
  current version at its next workflow task instead, which is safe because every change to its
  commands is guarded with `workflow.patched` and recorded histories replay in CI.
- ImplementationWorkflow, PINNED: minutes to an hour of one implementation, waiting on nobody; it
  ends on the code it started on, so its version drains soon after a release.
- GraphWorkflow, AUTO_UPGRADE: a graph run can wait on people as a ticket does, and its recorded
  histories replay in CI too.
"""

from temporalio import workflow
from temporalio.common import VersioningBehavior

from workflows.graph.workflow import GraphWorkflow
from workflows.ticket.implementation import ImplementationWorkflow
from workflows.ticket.workflow import TicketWorkflow

with workflow.unsafe.imports_passed_through():
    from workflows.graph.messages import GraphInput, GraphResult
    from workflows.ticket.messages import (
        ImplementationInput,
        ImplementationResult,
        TicketInput,
        TicketResult,
    )


@workflow.defn(name="TicketWorkflow", versioning_behavior=VersioningBehavior.AUTO_UPGRADE)
class VersionedTicketWorkflow(TicketWorkflow):
    """TicketWorkflow, moving to the current version at its next workflow task."""

    @workflow.run
    async def run(self, inp: TicketInput) -> TicketResult:
        """As TicketWorkflow runs."""
        return await super().run(inp)


@workflow.defn(name="ImplementationWorkflow", versioning_behavior=VersioningBehavior.PINNED)
class VersionedImplementationWorkflow(ImplementationWorkflow):
    """ImplementationWorkflow, ending on the version it started on."""

    @workflow.run
    async def run(self, inp: ImplementationInput) -> ImplementationResult:
        """As ImplementationWorkflow runs."""
        return await super().run(inp)


@workflow.defn(name="GraphWorkflow", versioning_behavior=VersioningBehavior.AUTO_UPGRADE)
class VersionedGraphWorkflow(GraphWorkflow):
    """GraphWorkflow, moving to the current version at its next workflow task."""

    @workflow.run
    async def run(self, inp: GraphInput) -> GraphResult:
        """As GraphWorkflow runs."""
        return await super().run(inp)


VERSIONED: dict[type, type] = {
    TicketWorkflow: VersionedTicketWorkflow,
    ImplementationWorkflow: VersionedImplementationWorkflow,
    GraphWorkflow: VersionedGraphWorkflow,
}


def versioned(workflows: list[type]) -> list[type]:
    """The classes a versioned worker registers: each workflow's declaring twin (a class without
    one must declare its behaviour itself; the SDK refuses it otherwise, naming it)."""
    return [VERSIONED.get(cls, cls) for cls in workflows]
