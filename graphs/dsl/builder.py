"""The fluent builder: the same definitions as YAML, written in Python.

GraphBuilder("custom").agent("trigger").checkpoint("triggered")
    .parallel(lambda b: b.agent("summarise"), lambda b: b.agent("assess"))
    .with_retry(attempts=3, initial_interval="2s")
    .conditional(equals("approval.approved", True), then=lambda b: b.agent("approve"))
    .on_error(lambda b: b.agent("report_failure"))
    .agent("complete").build()
"""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from pydantic import ValidationError

from graphs.dsl.conditions import Condition
from graphs.dsl.errors import DefinitionError, from_validation
from graphs.dsl.model import (
    AgentStep,
    CheckpointStep,
    ConditionalStep,
    EndStep,
    ForEachStep,
    GraphDefinition,
    LoopStep,
    ParallelStep,
    Retry,
    SequenceStep,
    Step,
    StepBase,
    WaitStep,
)
from graphs.dsl.validate import check_definition

Branch = Callable[["GraphBuilder"], "GraphBuilder"]
ConditionLike = Condition | dict[str, Any]


def equals(path: str, value: Any) -> Condition:
    """The value at `path` equals `value`."""
    return Condition.model_validate({"path": path, "equals": value})


def is_in(path: str, values: list[Any]) -> Condition:
    """The value at `path` is one of `values`."""
    return Condition.model_validate({"path": path, "in": values})


def exists(path: str, present: bool = True) -> Condition:
    """The state has (or, with present=False, lacks) a value at `path`."""
    return Condition.model_validate({"path": path, "exists": present})


def negate(condition: ConditionLike) -> Condition:
    """The condition does not hold."""
    return Condition.model_validate({"not": condition})


class GraphBuilder:
    """Collects steps in order; `with_retry`, `with_timeout` and `on_error` apply to the last."""

    def __init__(
        self, name: str = "branch", description: str = "", inputs: list[str] | None = None
    ):
        self._name, self._description, self._inputs = name, description, inputs or []
        self.steps: list[Step] = []

    def _add(self, model: type[StepBase], **fields: Any) -> "GraphBuilder":
        try:
            self.steps.append(model.model_validate(fields))  # type: ignore[arg-type]
        except ValidationError as err:
            raise from_validation(f"graph '{self._name}'", fields, err) from None
        return self

    def _last(self, what: str, **update: Any) -> "GraphBuilder":
        if not self.steps:
            raise DefinitionError(f"graph '{self._name}'", [f"{what} needs a step before it"])
        last = self.steps[-1]
        self.steps[-1] = type(last).model_validate({**dict(last), **update})
        return self

    def _branch(self, branch: Branch) -> list[Step]:
        return branch(GraphBuilder(self._name)).steps

    def agent(self, agent: str, name: str | None = None, **fields: Any) -> "GraphBuilder":
        """Run an agent; `input`, `params`, `output`, `timeout`, `heartbeat`, `retry` as in YAML."""
        return self._add(AgentStep, agent=agent, name=name, **fields)

    def sequence(self, steps: Branch, name: str | None = None) -> "GraphBuilder":
        """A block of steps one after the other (a unit for `on_error`)."""
        return self._add(SequenceStep, sequence=self._branch(steps), name=name)

    def checkpoint(self, name: str) -> "GraphBuilder":
        """A named checkpoint."""
        return self._add(CheckpointStep, checkpoint=name)

    def parallel(self, *branches: Branch, name: str | None = None) -> "GraphBuilder":
        """Branches run concurrently; a branch of several steps becomes a sequence."""
        built = [self._branch(b) for b in branches]
        steps = [b[0] if len(b) == 1 else SequenceStep(sequence=b) for b in built if b]
        return self._add(ParallelStep, parallel=steps, name=name)

    def foreach(self, items: str, do: Branch, output: str, **fields: Any) -> "GraphBuilder":
        """`do` once per item of the list at `items`; `as_`, `collect`, `max_parallel`."""
        if "as_" in fields:
            fields["as"] = fields.pop("as_")
        return self._add(ForEachStep, foreach=items, do=self._branch(do), output=output, **fields)

    def conditional(
        self,
        condition: ConditionLike,
        then: Branch | None = None,
        otherwise: Branch | None = None,
        name: str | None = None,
    ) -> "GraphBuilder":
        """`then` when the condition holds, else `otherwise`."""
        return self._add(
            ConditionalStep,
            name=name,
            **{
                "if": condition,
                "then": self._branch(then) if then else [],
                "else": self._branch(otherwise) if otherwise else [],
            },
        )

    def loop(self, body: Branch, max_iterations: int, **fields: Any) -> "GraphBuilder":
        """The body at most `max_iterations` times; `until`, `counter`, `name`."""
        return self._add(LoopStep, loop=self._branch(body), max_iterations=max_iterations, **fields)

    def wait(self, name: str, timeout: str | timedelta, **fields: Any) -> "GraphBuilder":
        """Wait for human input `name` until the deadline; `prompt`, `output`."""
        return self._add(WaitStep, wait=name, timeout=timeout, **fields)

    def end(self, message: str = "", message_from: str | None = None) -> "GraphBuilder":
        """End the graph as completed."""
        return self._add(EndStep, end=message, message_from=message_from)

    def with_retry(self, attempts: int = 3, **fields: Any) -> "GraphBuilder":
        """Retry policy of the last step (for a block: of each agent in it)."""
        return self._last(
            "with_retry", retry=Retry.model_validate({"attempts": attempts, **fields})
        )

    def with_timeout(self, timeout: str | timedelta) -> "GraphBuilder":
        """Timeout of the last step (for a block: of each agent in it)."""
        return self._last("with_timeout", timeout=timeout)

    def with_heartbeat(self, heartbeat: str | timedelta) -> "GraphBuilder":
        """Heartbeat timeout of the last step (for a block: of each agent in it)."""
        return self._last("with_heartbeat", heartbeat=heartbeat)

    def on_error(self, handler: Branch) -> "GraphBuilder":
        """Steps to run when the last step fails after its retries; the graph then goes on."""
        return self._last("on_error", on_error=self._branch(handler))

    def build(self) -> GraphDefinition:
        """The checked definition."""
        try:
            definition = GraphDefinition(
                name=self._name,
                description=self._description,
                inputs=self._inputs,
                steps=self.steps,
            )
        except ValidationError as err:
            raise from_validation(f"graph '{self._name}'", {}, err) from None
        check_definition(definition)
        return definition
