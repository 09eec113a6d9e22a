"""Whether a ticket only asks a question: one short call before the plan, on tickets whose
title is a question.

The plan's prompt says to answer a question instead of planning a change, and a small model
plans a change anyway. A ticket whose title asks something is put to the model as that one
question first: change, or answer.
"""

from typing import Annotated, Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

from graphs.node_types import AsyncNode
from graphs.planning.state import ANSWER_CHARS, LINE_CHARS, PlanAnswer, PlanningState
from graphs.schemas import TicketContext
from llm.prompting import task_prompt
from llm.structured import ModelAnswerError, ask_structured, cut_text

ANSWERED_SUMMARY = (
    "The ticket asks a question about how the code behaves; it is answered, and no file changes."
)


class TriageAnswer(BaseModel):
    """The model's reading of a ticket that may only ask a question."""

    # Written before the verdict, so that the small model reads the request before deciding.
    asks_for: Annotated[str, cut_text(LINE_CHARS), Field(max_length=LINE_CHARS)] = Field(
        description="One sentence: what the reporter asks for"
    )
    needs_change: bool = Field(
        description="true when the code must change; false when the ticket only asks whether "
        "or why the code behaves as it does"
    )
    answer: Annotated[str, cut_text(ANSWER_CHARS), Field(max_length=ANSWER_CHARS)] = Field(
        description="When needs_change is false: the answer, from the code and the ticket; "
        "otherwise empty"
    )


def reads_as_question(ticket: TicketContext) -> bool:
    """Whether the ticket's title is a question: the reporter asks before wanting a change."""
    return ticket.summary.strip().endswith("?")


def make_triage(model: BaseChatModel) -> AsyncNode[PlanningState]:
    """The node that asks whether a ticket reading as a question needs a change at all; its
    answer becomes a plan without files when it does not."""

    async def triage(state: PlanningState) -> dict[str, Any]:
        ticket, requirements = state["ticket"], state["requirements"]
        # Reviewers' feedback on a plan that answered means they want something else.
        if state["feedback"] or not reads_as_question(ticket):
            return {}
        inputs = {
            "ticket": ticket.model_dump(include={"summary", "description", "acceptance_criteria"}),
            "answers": [] if requirements is None else requirements.answers,
            "repository": state["analysis"].summary,
            "related_code": state.get("related_code") or None,
        }
        system, human = task_prompt("triage", inputs, key=ticket.key, summary=ticket.summary)
        try:
            answer, tokens = await ask_structured(model, system, human, TriageAnswer)
        except ModelAnswerError as err:  # the plan's own prompt decides then
            return {"tokens": err.tokens}
        if answer.needs_change or not answer.answer.strip():
            return {"tokens": tokens}
        plan = PlanAnswer(
            summary=ANSWERED_SUMMARY, files=[], test_plan=[], risks=[], answer=answer.answer
        )
        return {"answer": plan, "tokens": tokens}

    return triage


def after_triage(state: PlanningState) -> str:
    """Straight to the checks when the triage answered the ticket, else to the draft."""
    return "finalise" if state.get("answer") is not None else "draft"
