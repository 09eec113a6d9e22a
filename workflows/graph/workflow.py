"""The graph workflow: interprets a graph definition carried in its input.

Checkpoints show as the `Phase` search attribute and in the current details, the run's state
is the `status` query's answer, and `wait` steps take human input by signal or update.
"""

import asyncio

from temporalio import workflow
from temporalio.common import SearchAttributeKey
from temporalio.exceptions import (
    ActivityError,
    ApplicationError,
    ChildWorkflowError,
    is_cancelled_exception,
)

with workflow.unsafe.imports_passed_through():
    from graphs.dsl.errors import DefinitionError
    from graphs.dsl.model import StepBase
    from graphs.dsl.validate import check_definition
    from workflows.graph.messages import (
        GraphInput,
        GraphInputAccepted,
        GraphInputMessage,
        GraphResult,
        GraphStatus,
        GraphStatusValue,
    )
    from workflows.graph.runner import GraphEnded, GraphRunner, error_of

PHASE = SearchAttributeKey.for_keyword("Phase")
STATUS = SearchAttributeKey.for_keyword("Status")
START = "start"


@workflow.defn(name="GraphWorkflow")
class GraphWorkflow:
    """Runs one graph definition to its end: completed, failed, expired or cancelled."""

    @workflow.init
    def __init__(self, inp: GraphInput) -> None:
        self._status = GraphStatus(name=inp.definition.name, state=dict(inp.inputs))
        self._inbox: dict[str, object] = {}
        self._indexed: tuple[str, str] | None = None

    @workflow.run
    async def run(self, inp: GraphInput) -> GraphResult:
        """Check the definition, then run its steps on the inputs."""
        definition = inp.definition
        try:
            check_definition(definition, sorted(inp.agent_queues) if inp.agent_queues else None)
        except DefinitionError as err:
            raise ApplicationError(str(err), type="DefinitionError", non_retryable=True) from None
        missing = [name for name in definition.inputs if name not in inp.inputs]
        if missing:
            raise ApplicationError(
                f"graph '{definition.name}' needs the inputs {', '.join(missing)}"
                " (starter.py graph FILE --input NAME=VALUE)",
                type="DefinitionError",
                non_retryable=True,
            )
        runner = GraphRunner(self._status, dict(inp.agent_queues), self._inbox, self._publish)
        self._set(GraphStatusValue.RUNNING, f"Running graph {definition.name}")
        try:
            state = await runner.run(definition.steps, dict(inp.inputs), StepBase(), "")
            self._status.state = state
            return self._result(GraphStatusValue.COMPLETED, "Completed")
        except GraphEnded as ended:
            return self._result(GraphStatusValue.COMPLETED, str(ended) or "Ended")
        except (asyncio.CancelledError, ActivityError, ApplicationError, ChildWorkflowError) as err:
            if is_cancelled_exception(err):
                self._set(GraphStatusValue.CANCELLED, "Cancelled")
                raise
            error = error_of(err)
            if error["type"] == "WaitExpired":
                return self._result(GraphStatusValue.EXPIRED, error["message"])
            step = self._status.current_step
            self._set(GraphStatusValue.FAILED, f"Step {step} failed: {error['message']}")
            raise ApplicationError(
                self._status.message, type="GraphStepFailed", non_retryable=True
            ) from err

    @workflow.query
    def status(self) -> GraphStatus:
        """Where the run is, its checkpoints, steps and state."""
        return self._status

    @workflow.signal
    def graph_input(self, message: GraphInputMessage) -> None:
        """Human input for a `wait` step (fire and forget: kept until the step asks for it)."""
        self._inbox[message.name] = message.value

    @workflow.update
    def submit_input(self, message: GraphInputMessage) -> GraphInputAccepted:
        """Human input for the `wait` step under way; refused when nothing waits for it."""
        self._inbox[message.name] = message.value
        return GraphInputAccepted(message=f"input '{message.name}' accepted from {message.author}")

    @submit_input.validator
    def _check_input(self, message: GraphInputMessage) -> None:
        waiting = self._status.waiting_for
        if waiting != message.name:
            now = f"it is waiting for '{waiting}'" if waiting else "it is not waiting for input"
            raise ValueError(f"graph {self._status.name} cannot take input '{message.name}': {now}")

    def _publish(self) -> None:
        """Search attributes and current details after any change of checkpoint or wait."""
        waiting = self._status.waiting_for is not None
        value = GraphStatusValue.AWAITING_INPUT if waiting else GraphStatusValue.RUNNING
        if self._status.status in (GraphStatusValue.RUNNING, GraphStatusValue.AWAITING_INPUT):
            self._status.status = value
        self._index()
        workflow.set_current_details(self._details())

    def _set(self, value: GraphStatusValue, message: str) -> None:
        self._status.status, self._status.message = value, message
        self._index()
        workflow.set_current_details(self._details())

    def _index(self) -> None:
        key = (self._status.checkpoint or START, self._status.status.value)
        if key != self._indexed:
            self._indexed = key
            workflow.upsert_search_attributes([PHASE.value_set(key[0]), STATUS.value_set(key[1])])

    def _details(self) -> str:
        s = self._status
        lines = [f"**{s.name}**: {s.status.value}", "", s.message]
        if s.checkpoint:
            lines.append(f"\nCheckpoint: `{s.checkpoint}`")
        if s.current_step:
            lines.append(f"\nStep: `{s.current_step}`")
        if s.waiting_for:
            lines.append(f"\nWaiting for input `{s.waiting_for}`")
        lines.append(f"\nModel tokens: {s.tokens} ({s.cost.split()}), cost: {s.cost.text()}")
        return "\n".join(lines)

    def _result(self, value: GraphStatusValue, message: str) -> GraphResult:
        self._set(value, message)
        s = self._status
        return GraphResult(
            name=s.name,
            status=value,
            message=message,
            state=s.state,
            checkpoints=s.checkpoints,
            tokens=s.tokens,
            cost=s.cost,
        )
