"""Whether a ticket only asks a question: one short call before the plan, on tickets that
read as one.

The plan's prompt says to answer a question instead of planning a change, and the small
model planned a change anyway for a reporter who asked twice for nothing to change. A ticket
that asks whether or why the code does something and says to leave it alone is put to the
model as that one question first: change, or answer.
"""

import re
from typing import Annotated, Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

from graphs.node_types import AsyncNode
from graphs.planning.state import ANSWER_CHARS, LINE_CHARS, PlanAnswer, PlanningState
from graphs.schemas import Requirements, TicketContext
from llm.prompting import task_prompt
from llm.structured import ModelAnswerError, ask_structured, cut_text

# "I don't want anything changed", "we don't need a fix", "no code change", "the code stays
# as it is", "leave it as it is", "we only need to know", "just an explanation".
NO_CHANGE = re.compile(
    r"\b(?:don'?t|do not|does not|doesn'?t|should not|shouldn'?t|must not|no need to)\s+"
    r"(?:\w+\s+){0,3}(?:chang|fix)|\bno\s+(?:code\s+)?(?:changes?|fix)\b"
    r"|\bnothing\s+(?:\w+\s+){0,2}changed?\b"
    r"|\b(?:stays?|leave\s+\w+|kept|remains?)\s+as\s+(?:it|they)\s+(?:is|are)\b"
    r"|\b(?:only|just)\s+(?:\w+\s+){0,2}(?:to\s+know|an?\s+(?:explanation|answer))\b",
    re.IGNORECASE,
)
# What a question about the code asks: whether it is intended, or why it does what it does.
# A refactor asked as "Can we split utils.py? Behaviour must not change." asks neither.
ABOUT_INTENT = re.compile(
    r"\b(?:on purpose|intend(?:ed|ional)|expected|meant to|by design|deliberate|a bug|why)\b",
    re.IGNORECASE,
)
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


def reads_as_question(ticket: TicketContext, requirements: Requirements | None) -> bool:
    """Whether the ticket asks whether or why the code does something, and its text or the
    answers say to change nothing."""
    asked = f"{ticket.summary}\n{ticket.description}"
    asks = "?" in asked and ABOUT_INTENT.search(asked) is not None
    texts = [ticket.summary, ticket.description, ticket.acceptance_criteria or ""]
    texts += [] if requirements is None else requirements.answers
    return asks and any(NO_CHANGE.search(text) for text in texts)


def make_triage(model: BaseChatModel) -> AsyncNode[PlanningState]:
    """The node that asks whether a ticket reading as a question needs a change at all; its
    answer becomes a plan without files when it does not."""

    async def triage(state: PlanningState) -> dict[str, Any]:
        ticket, requirements = state["ticket"], state["requirements"]
        # Reviewers' feedback on a plan that answered means they want something else.
        if state["feedback"] or not reads_as_question(ticket, requirements):
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
