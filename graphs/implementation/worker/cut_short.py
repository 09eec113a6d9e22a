"""A worker's answer cut short, by a loop stopped as it streamed or by its token bound."""

import ast

from langchain_core.messages import AIMessage

from graphs.implementation.revision import is_test_file
from localmodel.loops import CUT_REASONS, LOOPED, repeating_block

LOOPED_PROBLEM = "the answer looped"
MAX_DROPPED_STATEMENTS = 3


def cut_short(answer: AIMessage) -> bool:
    """Whether the answer was stopped before it ended."""
    return answer.response_metadata.get("finish_reason") in CUT_REASONS


def loop_problem(answer: AIMessage) -> str:
    """What went wrong with a cut answer, naming the line it repeated where that is known."""
    block = repeating_block(answer.text).strip()
    if answer.response_metadata.get("finish_reason") == LOOPED and block:
        first = block.splitlines()[0].strip()
        return f"{LOOPED_PROBLEM}: it repeated lines like `{first}` until it was stopped"
    return f"{LOOPED_PROBLEM} until it was cut at its length bound"


def statement_starts(lines: list[str]) -> list[int]:
    """Where each top-level statement begins (a decorated definition at its first decorator)."""
    starts = [
        i for i, line in enumerate(lines)
        if line and not line[0].isspace() and line[0] not in ")]}#"
    ]  # fmt: skip
    return [i for i in starts if not (i > 0 and lines[i - 1].startswith("@"))]


def complete_part(text: str) -> str | None:
    """A cut Python text without its unfinished end: the longest prefix ending before a
    top-level statement that parses, dropping at most a few statements; None if none does."""
    lines = text.split("\n")
    for start in reversed(statement_starts(lines)[-MAX_DROPPED_STATEMENTS:]):
        kept = "\n".join(lines[:start]).rstrip()
        if not kept:
            return None
        try:
            ast.parse(kept)
        except SyntaxError:
            continue
        return kept + "\n"
    return None


def kept_of_cut(path: str, text: str | None) -> str | None:
    """What a cut answer keeps: a test module's finished tests (its last, looping test
    dropped); nothing of other files, whose unfinished code is asked for again."""
    if text is None or not path.endswith(".py") or not is_test_file(path):
        return None
    return complete_part(text)
