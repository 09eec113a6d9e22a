"""Worker interceptor: activity metrics, and log context carrying the ticket's phase.

The workflow side copies the ticket's Phase search attribute into a header of every
activity and child workflow it starts; the activity side binds it to the log context and
records duration, failures by type and model tokens.
"""

import asyncio
import logging
import time
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import structlog
from temporalio import activity, workflow
from temporalio.api.common.v1 import Payload
from temporalio.common import SearchAttributeKey
from temporalio.exceptions import ApplicationError
from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    ExecuteWorkflowInput,
    Interceptor,
    StartActivityInput,
    StartChildWorkflowInput,
    WorkflowInboundInterceptor,
    WorkflowInterceptorClassInput,
    WorkflowOutboundInterceptor,
)

from observability.metrics import ActivityInstruments

PHASE = SearchAttributeKey.for_keyword("Phase")
PHASE_HEADER = "ticketsmith-phase"

log = logging.getLogger("ticketsmith.activity")


def error_type(err: BaseException) -> str:
    """The label for a failure: the application error's type, else the exception class."""
    if isinstance(err, ApplicationError) and err.type:
        return err.type
    if isinstance(err, asyncio.CancelledError):
        return "Cancelled"
    return type(err).__name__


class ObservabilityInterceptor(Interceptor):
    """Metrics and log context for every activity; the phase header for every activity call."""

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        """Wrap activity execution."""
        return _ActivityInbound(next)

    def workflow_interceptor_class(
        self, input: WorkflowInterceptorClassInput
    ) -> type[WorkflowInboundInterceptor]:
        """Wrap workflows so their activity calls carry the phase."""
        return _WorkflowInbound


class _ActivityInbound(ActivityInboundInterceptor):
    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        info = activity.info()
        phase = None
        if PHASE_HEADER in input.headers:
            phase = activity.payload_converter().from_payload(input.headers[PHASE_HEADER], str)
        instruments = ActivityInstruments(activity.metric_meter())
        started = time.monotonic()
        with structlog.contextvars.bound_contextvars(phase=phase, activity=info.activity_type):
            try:
                result = await self.next.execute_activity(input)
            except BaseException as err:
                instruments.failed(error_type(err))  # the SDK logs the failure itself
                raise
            finally:
                took = time.monotonic() - started
                instruments.finished(timedelta(seconds=took))
            tokens = getattr(result, "tokens", None)
            if isinstance(tokens, int):
                instruments.tokens(tokens)
            log.info("activity %s finished in %.2fs", info.activity_type, took)
        return result


class _WorkflowInbound(WorkflowInboundInterceptor):
    def init(self, outbound: WorkflowOutboundInterceptor) -> None:
        self.inherited_phase: str | None = None
        super().init(_WorkflowOutbound(outbound, self))

    async def execute_workflow(self, input: ExecuteWorkflowInput) -> Any:
        if PHASE_HEADER in input.headers:  # a child workflow: the parent's phase
            header = input.headers[PHASE_HEADER]
            self.inherited_phase = workflow.payload_converter().from_payload(header, str)
        return await super().execute_workflow(input)

    def phase(self) -> str | None:
        """The ticket's phase: this workflow's search attribute, else its parent's phase."""
        return workflow.info().typed_search_attributes.get(PHASE) or self.inherited_phase


class _WorkflowOutbound(WorkflowOutboundInterceptor):
    def __init__(self, next: WorkflowOutboundInterceptor, inbound: _WorkflowInbound) -> None:
        super().__init__(next)
        self._inbound = inbound

    def _with_phase(self, headers: Mapping[str, Payload]) -> Mapping[str, Payload]:
        phase = self._inbound.phase()
        if not phase:
            return headers
        return {**headers, PHASE_HEADER: workflow.payload_converter().to_payload(phase)}

    def start_activity(self, input: StartActivityInput) -> workflow.ActivityHandle[Any]:
        input.headers = self._with_phase(input.headers)
        return super().start_activity(input)

    async def start_child_workflow(
        self, input: StartChildWorkflowInput
    ) -> workflow.ChildWorkflowHandle[Any, Any]:
        input.headers = self._with_phase(input.headers)
        return await super().start_child_workflow(input)
