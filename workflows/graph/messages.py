"""Typed input, result, status and human-input payloads of the graph workflow."""

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

from graphs.dsl.model import GraphDefinition
from llm.cost import ModelCost

MAX_STEP_RECORDS = 300


class GraphStatusValue(StrEnum):
    """What a graph run is doing (the `Status` search attribute)."""

    RUNNING = "running"
    AWAITING_INPUT = "awaiting_input"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class GraphInput(BaseModel):
    """A whole definition travels in the input, so editing the file never breaks a history."""

    definition: GraphDefinition
    inputs: dict[str, Any] = Field(default_factory=dict)
    # Task queue of each registered agent; an agent not listed here is refused at start.
    # Empty: every agent runs on the workflow's own task queue and is not checked.
    agent_queues: dict[str, str] = Field(default_factory=dict)


class StepRecord(BaseModel):
    """One step as it ran: what, how it ended, when."""

    step: str
    kind: str
    status: str
    started_at: datetime
    ended_at: datetime | None = None
    message: str = ""


class GraphStatus(BaseModel):
    """The status query's answer: where the run is and its whole state."""

    name: str
    status: GraphStatusValue = GraphStatusValue.RUNNING
    checkpoint: str | None = None
    checkpoints: list[str] = Field(default_factory=list)
    current_step: str | None = None
    waiting_for: str | None = None
    message: str = ""
    state: dict[str, Any] = Field(default_factory=dict)
    steps: list[StepRecord] = Field(default_factory=list)
    tokens: int = 0
    cost: ModelCost = Field(default_factory=ModelCost)


class GraphResult(BaseModel):
    """How the run ended, with its final state."""

    name: str
    status: GraphStatusValue
    message: str
    state: dict[str, Any]
    checkpoints: list[str]
    tokens: int
    cost: ModelCost = Field(default_factory=ModelCost)


class GraphInputMessage(BaseModel):
    """Human input for a `wait` step, by signal or update."""

    name: str
    value: Any = None
    author: str = "unknown"


class GraphInputAccepted(BaseModel):
    """The update's answer."""

    message: str
