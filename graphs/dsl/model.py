"""The graph definition model: steps of kind agent, sequence, parallel, foreach, if, loop,
checkpoint, wait and end, with per-step retry, timeout and error handler.

A step is written as a mapping whose kind key says what it is (`agent: planner`,
`parallel: [...]`, `if: {...}`); YAML files and `GraphBuilder` both produce this model.
"""

from datetime import timedelta
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
)

from graphs.dsl.conditions import Condition
from graphs.dsl.durations import Duration

STEP_KINDS = ("agent", "sequence", "parallel", "foreach", "if", "loop", "checkpoint", "wait", "end")
MAX_ITERATIONS = 1000
MAX_ATTEMPTS = 100
NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_.-]*$"


class Retry(BaseModel):
    """How an agent step is retried: attempts in all, first wait, growth of the wait."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    attempts: int = Field(default=3, ge=1, le=MAX_ATTEMPTS)
    initial_interval: Duration = timedelta(seconds=2)
    backoff: float = Field(default=2.0, ge=1.0, le=10.0)
    max_interval: Duration | None = None
    non_retryable: list[str] = Field(default_factory=list)


class StepBase(BaseModel):
    """What every step may have: a name, defaults for the agents inside, an error handler."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    name: str | None = Field(default=None, pattern=NAME_PATTERN)
    retry: Retry | None = None
    timeout: Duration | None = None
    # Without a heartbeat for this long an agent's activity counts as lost and is retried.
    heartbeat: Duration | None = None
    on_error: "list[Step] | None" = None

    def label(self) -> str:
        """How people see the step: its name, else what it does."""
        return self.name or self.kind()

    def kind(self) -> str:
        """The step's kind key (`agent`, `parallel`, ...)."""
        return step_kind(self) or "step"

    def children(self) -> "list[list[Step]]":
        """The step lists nested in this step (branches, bodies, handlers)."""
        return [self.on_error] if self.on_error else []


class AgentStep(StepBase):
    """Run one agent from the registry as an activity; its result goes to `output`."""

    agent: str = Field(pattern=NAME_PATTERN)
    input: dict[str, str] | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    output: str | None = Field(default=None, pattern=NAME_PATTERN)

    def label(self) -> str:
        return self.name or self.agent

    def output_key(self) -> str:
        """Where the result is stored in the state."""
        return self.output or self.name or self.agent


class SequenceStep(StepBase):
    """Steps one after the other."""

    sequence: "list[Step]" = Field(min_length=1)

    def children(self) -> "list[list[Step]]":
        return [self.sequence, *super().children()]


class ParallelStep(StepBase):
    """Branches run concurrently; each branch's new state values merge into one state."""

    parallel: "list[Step]" = Field(min_length=1)

    def children(self) -> "list[list[Step]]":
        return [[branch] for branch in self.parallel] + super().children()


class ForEachStep(StepBase):
    """The same steps once per item of a state list, concurrently; results gathered in order."""

    foreach: str
    as_: str = Field(default="item", alias="as", pattern=NAME_PATTERN)
    do: "list[Step]" = Field(min_length=1)
    collect: str | None = None
    output: str = Field(pattern=NAME_PATTERN)
    max_parallel: int | None = Field(default=None, ge=1)

    def children(self) -> "list[list[Step]]":
        return [self.do, *super().children()]


class ConditionalStep(StepBase):
    """`then` when the condition holds, else `else` (either may be empty)."""

    if_: Condition = Field(alias="if")
    then: "list[Step]" = Field(default_factory=list)
    else_: "list[Step]" = Field(default_factory=list, alias="else")

    def children(self) -> "list[list[Step]]":
        return [self.then, self.else_, *super().children()]


class LoopStep(StepBase):
    """The body again and again, at most `max_iterations` times, until the condition holds."""

    loop: "list[Step]" = Field(min_length=1)
    max_iterations: int = Field(ge=1, le=MAX_ITERATIONS)
    until: Condition | None = None
    counter: str = Field(default="iteration", pattern=NAME_PATTERN)

    def children(self) -> "list[list[Step]]":
        return [self.loop, *super().children()]


class CheckpointStep(StepBase):
    """A named point the Web UI shows (current details) and visibility indexes (Phase)."""

    checkpoint: str = Field(pattern=NAME_PATTERN)

    def label(self) -> str:
        return self.name or self.checkpoint


class WaitStep(StepBase):
    """Wait for human input named `wait` (signal or update) until the deadline `timeout`."""

    wait: str = Field(pattern=NAME_PATTERN)
    timeout: Duration = Field(default=timedelta(days=7))
    prompt: str = ""
    output: str | None = Field(default=None, pattern=NAME_PATTERN)

    def label(self) -> str:
        return self.name or self.wait

    def output_key(self) -> str:
        """Where the input is stored in the state."""
        return self.output or self.wait


class EndStep(StepBase):
    """End the graph here as completed, with a message (or the text at a state path)."""

    end: str = ""
    message_from: str | None = None


_KIND_MODELS: dict[str, type[StepBase]] = {
    "agent": AgentStep,
    "sequence": SequenceStep,
    "parallel": ParallelStep,
    "foreach": ForEachStep,
    "if": ConditionalStep,
    "loop": LoopStep,
    "checkpoint": CheckpointStep,
    "wait": WaitStep,
    "end": EndStep,
}


def step_kind(value: Any) -> str | None:
    """The kind of a step, written or built."""
    if isinstance(value, StepBase):
        return next((k for k, model in _KIND_MODELS.items() if isinstance(value, model)), None)
    if isinstance(value, dict):
        found = [k for k in STEP_KINDS if k in value or f"{k}_" in value]
        return found[0] if len(found) == 1 else None
    return None


def _one_kind(value: Any) -> Any:
    if isinstance(value, dict):
        found = [k for k in STEP_KINDS if k in value or f"{k}_" in value]
        if len(found) != 1:
            what = ", ".join(found) if found else "none of them"
            raise ValueError(f"a step needs exactly one of {', '.join(STEP_KINDS)}; found {what}")
    elif not isinstance(value, StepBase):
        raise ValueError(f"a step is a mapping like {{agent: NAME}}, not {type(value).__name__}")
    return value


Step = Annotated[
    Annotated[AgentStep, Tag("agent")]
    | Annotated[SequenceStep, Tag("sequence")]
    | Annotated[ParallelStep, Tag("parallel")]
    | Annotated[ForEachStep, Tag("foreach")]
    | Annotated[ConditionalStep, Tag("if")]
    | Annotated[LoopStep, Tag("loop")]
    | Annotated[CheckpointStep, Tag("checkpoint")]
    | Annotated[WaitStep, Tag("wait")]
    | Annotated[EndStep, Tag("end")],
    Discriminator(step_kind),
    BeforeValidator(_one_kind),
]


class GraphDefinition(BaseModel):
    """A whole graph: a name, the inputs it needs, and its steps in order."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=NAME_PATTERN)
    description: str = ""
    inputs: list[str] = Field(default_factory=list)
    steps: list[Step] = Field(min_length=1)

    @field_validator("inputs")
    @classmethod
    def _distinct_inputs(cls, inputs: list[str]) -> list[str]:
        if len(set(inputs)) != len(inputs):
            raise ValueError("an input is listed twice")
        return inputs


_MODELS: list[type[BaseModel]] = [StepBase, *_KIND_MODELS.values(), GraphDefinition]
for _model in _MODELS:
    _model.model_rebuild()
