"""Judging a review round: for each comment, did the change address it, and the reply to give.

One structured call for the round, small enough for a 1.5B model: per comment its text
(quoted as untrusted data) and the diff hunk of the round nearest to it.
"""

import difflib
from typing import Annotated

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, BeforeValidator, Field

from graphs.review.feedback import quote_untrusted
from llm.prompting import task_prompt
from llm.structured import ask_structured, capped

MAX_COMMENTS = 12
REPLY_LIMIT = 300
COMMENT_LIMIT = 1_200
HUNK_LIMIT = 1_200
NO_CHANGE = "(this round changed nothing in this file)"


def _short(value: object) -> object:
    return value[:REPLY_LIMIT] if isinstance(value, str) else value


class Verdict(BaseModel):
    """The model's verdict on one comment."""

    id: int
    # The reply before the verdict: a small model writes its reasoning first, then decides.
    reply: Annotated[str, BeforeValidator(_short)]
    addressed: bool


class Verdicts(BaseModel):
    """One verdict per comment."""

    verdicts: Annotated[list[Verdict], capped(MAX_COMMENTS), Field(max_length=MAX_COMMENTS)]


class Judged(BaseModel):
    """A comment to judge: its id, text, place, and the round's change near it."""

    id: int
    body: str
    path: str | None = None
    line: int | None = None
    hunk: str = NO_CHANGE


def hunks(old: str, new: str) -> list[tuple[int, str]]:
    """The unified-diff hunks between two versions of a file, each with its first new line."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), n=2, lineterm="\n"
    )
    found: list[tuple[int, list[str]]] = []
    for line in list(lines)[2:]:
        if line.startswith("@@"):
            start = int(line.split("+", 1)[1].split(",", 1)[0].split(" ", 1)[0])
            found.append((start, [line]))
        elif found:
            found[-1][1].append(line if line.endswith("\n") else line + "\n")
    return [(start, "".join(text)) for start, text in found]


def nearest_hunk(old: str, new: str, line: int | None) -> str:
    """The hunk nearest the comment's line (the first when it names none), trimmed."""
    found = hunks(old, new)
    if not found:
        return NO_CHANGE
    start, text = min(found, key=lambda h: abs(h[0] - line) if line is not None else h[0])
    return text[:HUNK_LIMIT]


def comments_text(comments: list[Judged]) -> str:
    """The comments as the prompt shows them: id, place, quoted text, change near it."""
    parts = []
    for c in comments[:MAX_COMMENTS]:
        place = f" on `{c.path}`" + (f" line {c.line}" if c.line else "") if c.path else ""
        hunk = c.hunk.replace("```", "'''")
        parts.append(
            f"Comment id {c.id}{place}:\n{quote_untrusted(c.body, COMMENT_LIMIT)}\n"
            f"Change near it:\n```diff\n{hunk}\n```"
        )
    return "\n\n".join(parts)


async def judge_comments(
    model: BaseChatModel, key: str, comments: list[Judged]
) -> tuple[dict[int, Verdict], int]:
    """The verdict per comment id the model gave (ids it skipped are missing) and tokens.

    Raises ModelAnswerError when the answer does not parse.
    """
    inputs = {"comments": [{"id": c.id, "changed": c.hunk != NO_CHANGE} for c in comments]}
    system, human = task_prompt("judge_comments", inputs, key=key, comments=comments_text(comments))
    answer, tokens = await ask_structured(model, system, human, Verdicts, retries=1)
    wanted = {c.id for c in comments}
    return {v.id: v for v in answer.verdicts if v.id in wanted}, tokens
