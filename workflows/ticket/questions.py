"""Follow-up questions: a round never asks again what was asked and answered already."""

import re

from graphs.schemas import Question

# The patch under which follow-up questions already asked are dropped from a round.
NO_REPEATED_QUESTIONS = "no-repeated-questions"


def question_key(text: str) -> str:
    """A question's text as compared: case, spacing and the closing mark do not count."""
    return re.sub(r"\s+", " ", text).strip().rstrip("?.! ").lower()


def unasked(pending: list[Question], asked: list[Question]) -> list[Question]:
    """The pending questions that no earlier round asked (and none repeated within them)."""
    seen = {question_key(q.text) for q in asked}
    fresh: list[Question] = []
    for question in pending:
        key = question_key(question.text)
        if key not in seen:
            seen.add(key)
            fresh.append(question)
    return fresh
