"""State of the refinement graph and the model's answer schemas."""

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from pydantic import BaseModel, Field

from graphs.schemas import Analysis, Question, QuestionSet, Requirements, TicketContext
from graphs.structured import capped

MAX_QUESTIONS = 5
MAX_REQUIREMENTS = 30
MAX_CRITERIA = 20
MAX_FOLLOWUP_QUESTIONS = 3


class RefinementInput(TypedDict):
    """What the graph is started with; `step` chooses questions or requirements.

    `allow_followup` lets the requirements step ask follow-up questions instead of guessing.
    """

    step: Literal["questions", "requirements"]
    ticket: TicketContext
    analysis: Analysis
    questions: list[Question]
    answers: list[str]
    allow_followup: NotRequired[bool]


class RefinementState(RefinementInput, total=False):
    """Everything the nodes read and write."""

    question_set: QuestionSet
    requirements: Requirements
    tokens: int


class QuestionsAnswer(BaseModel):
    """The model's clarifying questions; an empty list means the ticket is clear."""

    questions: Annotated[list[Question], capped(MAX_QUESTIONS), Field(max_length=MAX_QUESTIONS)] = (
        Field(default_factory=list)
    )
    clear: bool


def without_default(schema: dict[str, Any]) -> None:
    """Drop a field's default from its JSON schema (strict structured output refuses them)."""
    schema.pop("default", None)


class RequirementsAnswer(BaseModel):
    """The model's refined requirements, acceptance criteria and any follow-up questions."""

    requirements: Annotated[list[str], capped(MAX_REQUIREMENTS), Field(max_length=MAX_REQUIREMENTS)]
    acceptance_criteria: Annotated[list[str], capped(MAX_CRITERIA), Field(max_length=MAX_CRITERIA)]
    followup_questions: Annotated[
        list[Question], capped(MAX_FOLLOWUP_QUESTIONS), Field(max_length=MAX_FOLLOWUP_QUESTIONS)
    ] = Field(default_factory=list)
    # Strict JSON-schema mode forbids defaults; a lenient parse still fills one in.
    clear: bool = Field(True, json_schema_extra=without_default)
