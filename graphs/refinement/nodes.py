"""Nodes of the refinement graph: ask clarifying questions, or turn answers into requirements."""

import re
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel

from graphs.node_types import AsyncNode
from graphs.offline import is_offline
from graphs.refinement.state import QuestionsAnswer, RefinementState, RequirementsAnswer
from graphs.schemas import Analysis, Question, QuestionSet, Requirements
from llm.prompting import task_prompt
from llm.structured import ask_structured


def analysis_brief(analysis: Analysis) -> dict[str, Any]:
    """The parts of the analysis a prompt needs (not the file list)."""
    return analysis.model_dump(include={"summary", "languages", "frameworks", "test_command"})


# Words with which an answer leaves its question open (or asks one back).
_STILL_OPEN = re.compile(
    r"\b(don'?t know|do not know|not sure|unsure|undecided|unknown|unclear|no idea|tbd|tbc|"
    r"maybe|perhaps|possibly|it depends|"
    r"to be (decided|confirmed|determined)|open question|up to you|you decide|either way)\b|\?",
    re.IGNORECASE,
)


def _normalised(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def leaves_questions_open(questions: list[Question], answers: list[str]) -> bool:
    """Whether the answers leave a question open, so that a follow-up may ask about it.

    No answer at all leaves every question open; an answer saying it does not know, or asking
    back, leaves its question open. The same answer given again adds nothing: the reporter has
    said what they know, and asking again would only bring it back a third time.
    """
    given = [a for a in answers if a.strip()]
    if questions and not given:
        return True
    seen: set[str] = set()
    for answer in given:
        if _normalised(answer) in seen:
            return False
        seen.add(_normalised(answer))
    return any(_STILL_OPEN.search(answer) for answer in given)


def settled_questions(questions: list[Question], answers: list[str]) -> list[str]:
    """The questions the answers settle: each one answered, unless its answer leaves it open.

    Answers one per question are read each against its own; fewer or more (one comment
    answering all) settle every question, unless one of them leaves something open.
    """
    given = [a for a in answers if a.strip()]
    if not given:
        return []
    if len(given) == len(questions):
        return [q.text for q, a in zip(questions, given, strict=True) if not _STILL_OPEN.search(a)]
    return [] if any(_STILL_OPEN.search(a) for a in given) else [q.text for q in questions]


def answered_questions(questions: list[Question], answers: list[str]) -> list[dict[str, Any]]:
    """Questions paired with answers; answers beyond the questions are kept as general ones."""
    pairs: list[dict[str, Any]] = []
    for i, answer in enumerate(answers):
        question = questions[i].text if i < len(questions) else None
        pairs.append({"question": question, "answer": answer})
    return pairs


async def route_start(state: RefinementState) -> Literal["ask_questions", "write_requirements"]:
    """Choose the node for the requested step."""
    if state["step"] == "questions":
        return "ask_questions"
    if state["step"] == "requirements":
        return "write_requirements"
    raise ValueError(f"unknown refinement step {state['step']!r}")


def make_ask_questions(model: BaseChatModel) -> AsyncNode[RefinementState]:
    """The node that asks the model which questions the ticket leaves open."""

    async def ask_questions(state: RefinementState) -> dict[str, Any]:
        ticket = state["ticket"]
        inputs = {"ticket": ticket.model_dump(), "analysis": analysis_brief(state["analysis"])}
        system, human = task_prompt("questions", inputs, key=ticket.key, summary=ticket.summary)
        answer, tokens = await ask_structured(model, system, human, QuestionsAnswer)
        questions = [q.question() for q in answer.questions if q.text.strip()]
        question_set = QuestionSet(
            questions=questions,
            clear=not questions,
            produced_offline=is_offline(model),
            tokens=tokens,
        )
        return {"question_set": question_set, "tokens": tokens}

    return ask_questions


def make_write_requirements(model: BaseChatModel) -> AsyncNode[RefinementState]:
    """The node that asks the model for requirements from the ticket and the answers."""

    async def write_requirements(state: RefinementState) -> dict[str, Any]:
        ticket = state["ticket"]
        inputs = {
            "ticket": ticket.model_dump(),
            "analysis": analysis_brief(state["analysis"]),
            "answered_questions": answered_questions(state["questions"], state["answers"]),
            "followup_allowed": state.get("allow_followup", True),
        }
        system, human = task_prompt("requirements", inputs, key=ticket.key, summary=ticket.summary)
        answer, tokens = await ask_structured(model, system, human, RequirementsAnswer)
        followups = [q.question() for q in answer.followup_questions if q.text.strip()]
        asked, answers = state["questions"], state["answers"]
        if not state.get("allow_followup", True) or not leaves_questions_open(asked, answers):
            followups = []
        requirements = Requirements(
            requirements=[r.strip() for r in answer.requirements if r.strip()],
            acceptance_criteria=[c.strip() for c in answer.acceptance_criteria if c.strip()],
            followup_questions=followups,
            clear=not followups,
            produced_offline=is_offline(model),
            tokens=tokens,
        )
        return {"requirements": requirements, "tokens": tokens}

    return write_requirements
