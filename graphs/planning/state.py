"""State of the planning graph and the model's answer schema."""

from typing import Annotated, NotRequired, TypedDict

from pydantic import BaseModel, Field

from graphs.schemas import Analysis, Contract, Plan, PlannedFile, Requirements, TicketContext
from graphs.structured import capped

MAX_FILES = 20
MAX_ITEMS = 10


class PlanAnswer(BaseModel):
    """The model's plan; the markdown is rendered from it by code."""

    summary: str = Field(description="Two or three sentences: the approach")
    files: Annotated[list[PlannedFile], capped(MAX_FILES), Field(max_length=MAX_FILES)]
    test_plan: Annotated[list[str], capped(MAX_ITEMS), Field(max_length=MAX_ITEMS)]
    risks: Annotated[list[str], capped(MAX_ITEMS), Field(max_length=MAX_ITEMS)]
    contracts: Annotated[list[Contract], capped(MAX_ITEMS), Field(max_length=MAX_ITEMS)] = Field(
        default_factory=list,
        description="Interfaces other code relies on: function or class signatures and behaviour",
    )
    addresses_feedback: Annotated[list[str], capped(MAX_ITEMS), Field(max_length=MAX_ITEMS)] = (
        Field(default_factory=list)
    )
    changes_since_previous: Annotated[list[str], capped(MAX_ITEMS), Field(max_length=MAX_ITEMS)] = (
        Field(default_factory=list, description="When a previous version is given: what changed")
    )


class PlanningInput(TypedDict):
    """What the graph is started with."""

    ticket: TicketContext
    analysis: Analysis
    requirements: Requirements | None
    feedback: list[str]
    version: int
    previous: NotRequired[Plan | None]


class PlanningState(PlanningInput, total=False):
    """Everything the nodes read and write."""

    related_code: str
    answer: PlanAnswer
    tokens: int
    plan: Plan
