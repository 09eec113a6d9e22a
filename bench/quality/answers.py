"""A question ticket's answer: what the product posted on the Jira issue, checked against the
ticket's rubric (`answer_facts`: each fact a list of alternative phrases, every fact needed)."""

import re

from bench.quality.tickets import Ticket
from config import Settings
from integrations.jira.client import JiraClient, JiraComment

_MARKER = re.compile(r"ticketsmith ref: \S+/(?P<step>[\w.-]+)")
_SPACE = re.compile(r"\s+")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
QUESTIONS_STEP = "questions-"


def normalised(text: str) -> str:
    """Text for matching: lower case, typographic quotes plain, whitespace runs one space."""
    return _SPACE.sub(" ", text.translate(_QUOTES).lower()).strip()


def missing_facts(facts: list[list[str]], answer: str) -> list[str]:
    """The facts the answer lacks (each named by its first phrase)."""
    said = normalised(answer)
    return [fact[0] for fact in facts if not any(normalised(p) in said for p in fact)]


def is_question_round(comment: JiraComment) -> bool:
    """A comment in which the product asked its questions."""
    found = _MARKER.search(comment.body)
    return found is not None and found["step"].startswith(QUESTIONS_STEP)


def posted_answer(ticket: Ticket, comments: list[JiraComment]) -> str:
    """The issue's comments as one text, without the questions asked and the bench's answers."""
    ours = normalised(ticket.answers)
    kept = [
        c.body
        for c in comments
        if not is_question_round(c) and (not ours or ours not in normalised(c.body))
    ]
    return "\n\n".join(kept)


async def read_posted_answer(settings: Settings, ticket: Ticket) -> str:
    """What the product posted on the ticket's issue in the Jira emulator."""
    jira = JiraClient(
        settings.jira_base_url,
        settings.jira_email,
        settings.jira_token.get_secret_value(),
        api_version=settings.jira_api_version,
    )
    try:
        return posted_answer(ticket, await jira.list_comments(ticket.key))
    finally:
        await jira.aclose()
