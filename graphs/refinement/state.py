"""State of the refinement graph and the model's answer schemas."""

from typing import Annotated, Literal, TypedDict

from pydantic import BaseModel, Field

from graphs.schemas import Analysis, Question, QuestionSet, Requirements, TicketContext
from graphs.structured import capped

MAX_QUESTIONS = 5
MAX_REQUIREMENTS = 30
MAX_CRITERIA = 20


class RefinementInput(TypedDict):
    """What the graph is started with; `step` chooses questions or requirements."""

    step: Literal["questions", "requirements"]
    ticket: TicketContext
    analysis: Analysis
    questions: list[Question]
    answers: list[str]


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


class RequirementsAnswer(BaseModel):
    """The model's refined requirements and acceptance criteria."""

    requirements: Annotated[list[str], capped(MAX_REQUIREMENTS), Field(max_length=MAX_REQUIREMENTS)]
    acceptance_criteria: Annotated[list[str], capped(MAX_CRITERIA), Field(max_length=MAX_CRITERIA)]
