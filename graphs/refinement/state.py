"""State of the refinement graph and the model's answer schemas."""

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from pydantic import BaseModel, Field

from graphs.schemas import Analysis, Question, QuestionSet, Requirements, TicketContext
from llm.structured import capped, cut_text

# Each question costs the reporter a reply and the model a minute of writing on two cores;
# the local model filled five slots with questions the ticket had answered.
MAX_QUESTIONS = 3
MAX_REQUIREMENTS = 30
MAX_CRITERIA = 20
MAX_FOLLOWUP_QUESTIONS = 3
# Each requirement and criterion is a sentence or two; bounded in the schema, so a local
# server's grammar ends a line that goes on repeating.
ITEM_CHARS = 400
Item = Annotated[str, cut_text(ITEM_CHARS), Field(max_length=ITEM_CHARS)]
# Why a question matters is one sentence; the local model wrote three, answering the question.
WHY_CHARS = 200
Why = Annotated[str, cut_text(WHY_CHARS), Field(max_length=WHY_CHARS)]


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


class QuestionAnswer(BaseModel):
    """One clarifying question as the model writes it (a `Question` with bounds)."""

    text: Item
    why: Why

    def question(self) -> Question:
        """The question as the workflow carries it."""
        return Question(text=self.text, why=self.why)


class QuestionsAnswer(BaseModel):
    """The model's clarifying questions; an empty list means the ticket is clear."""

    questions: Annotated[
        list[QuestionAnswer], capped(MAX_QUESTIONS), Field(max_length=MAX_QUESTIONS)
    ] = Field(default_factory=list)
    clear: bool


def without_default(schema: dict[str, Any]) -> None:
    """Drop a field's default from its JSON schema (strict structured output refuses them)."""
    schema.pop("default", None)


class RequirementsAnswer(BaseModel):
    """The model's refined requirements, acceptance criteria and any follow-up questions."""

    requirements: Annotated[
        list[Item], capped(MAX_REQUIREMENTS), Field(max_length=MAX_REQUIREMENTS)
    ]
    acceptance_criteria: Annotated[list[Item], capped(MAX_CRITERIA), Field(max_length=MAX_CRITERIA)]
    followup_questions: Annotated[
        list[QuestionAnswer],
        capped(MAX_FOLLOWUP_QUESTIONS),
        Field(max_length=MAX_FOLLOWUP_QUESTIONS),
    ] = Field(default_factory=list)
    # Strict JSON-schema mode forbids defaults; a lenient parse still fills one in.
    clear: bool = Field(True, json_schema_extra=without_default)
