"""State of the planning graph and the model's answer schema."""

from functools import cache
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from pydantic import BaseModel, Field, create_model

from graphs.refinement.state import without_default
from graphs.schemas import Analysis, Plan, Requirements, TicketContext
from llm.structured import capped, cut_text

MAX_FILES = 20
MAX_ITEMS = 10
# Bounds on every string of the answer: a small model repeating a line stops here.
PATH_CHARS = 200
LINE_CHARS = 400
SUMMARY_CHARS = 800
ANSWER_CHARS = 3000

PathText = Annotated[str, cut_text(PATH_CHARS), Field(max_length=PATH_CHARS)]
Line = Annotated[str, cut_text(LINE_CHARS), Field(max_length=LINE_CHARS)]
Summary = Annotated[str, cut_text(SUMMARY_CHARS), Field(max_length=SUMMARY_CHARS)]
Lines = Annotated[list[Line], capped(MAX_ITEMS), Field(max_length=MAX_ITEMS)]


class PlannedFileAnswer(BaseModel):
    """One file the plan touches, as the model writes it (a `PlannedFile` with bounds)."""

    path: PathText
    action: Literal["create", "modify", "delete"]
    purpose: Line


class ContractAnswer(BaseModel):
    """An interface the plan promises, as the model writes it (a `Contract` with bounds)."""

    path: PathText
    signature: Line
    behaviour: Line


class PlanAnswer(BaseModel):
    """The model's plan; the markdown is rendered from it by code."""

    summary: Summary = Field(description="Two or three sentences: the approach")
    files: Annotated[list[PlannedFileAnswer], capped(MAX_FILES), Field(max_length=MAX_FILES)]
    test_plan: Lines
    risks: Lines
    contracts: Annotated[list[ContractAnswer], capped(MAX_ITEMS), Field(max_length=MAX_ITEMS)] = (
        Field(
            default_factory=list,
            description="Interfaces other code relies on: function or class signatures and "
            "behaviour",
        )
    )
    addresses_feedback: Lines = Field(default_factory=list)
    changes_since_previous: Lines = Field(
        default_factory=list, description="When a previous version is given: what changed"
    )
    answer: Annotated[str, cut_text(ANSWER_CHARS), Field(max_length=ANSWER_CHARS)] = Field(
        default="",
        json_schema_extra=without_default,
        description="Only for a question that needs no code change: the answer, with files "
        "left empty; otherwise empty",
    )


REVISION_FIELDS = frozenset({"addresses_feedback", "changes_since_previous"})


@cache
def plan_answer_schema(*, question: bool, revised: bool) -> type[BaseModel]:
    """The plan's schema with only the fields that can apply: the server's grammar then offers
    the model no field to ramble in (a first plan of a small model had run to its token cap)."""
    left_out = (set() if question else {"answer"}) | (set() if revised else REVISION_FIELDS)
    if not left_out:
        return PlanAnswer
    fields: dict[str, Any] = {
        name: (info.annotation, info)
        for name, info in PlanAnswer.model_fields.items()
        if name not in left_out
    }
    return create_model("PlanAnswer", __doc__=PlanAnswer.__doc__, **fields)


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
    defined_in: dict[str, list[str]]  # the files defining each function the plan names
    fallback: str  # why the plan was built from the requirements, when the model's was unusable
    tokens: int
    plan: Plan
