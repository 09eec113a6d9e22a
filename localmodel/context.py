"""Keeping each prompt and its answer inside a small model's context window.

The graphs already choose what goes in (retrieval, windows of long files); this is the last
guard before the server: when a prompt would leave too little room for the answer it windows
the largest context blocks first (retrieved code), the code the task rewrites last, and gives
the answer the room that is left.
"""

import math
import re
from dataclasses import dataclass

from langchain_core.messages import BaseMessage, HumanMessage

CHARS_PER_TOKEN = 3.2  # Qwen2.5 tokenizer, measured: 3.3 (JSON) to 4.6 (prose) chars a token
MESSAGE_OVERHEAD = 8  # role markers the chat template adds around every message
SAFETY_TOKENS = 64
KEEP_CHARS = 400  # nothing is windowed below this
REWRITE_MARGIN = 128  # the path heading and fences around a rewritten file
_FENCED = re.compile(
    r"^(?P<fence>`{3,}|~{3,})(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.DOTALL | re.M
)


class ContextTooSmall(ValueError):
    """The code to rewrite alone leaves no room for an answer in the model's context."""


@dataclass(frozen=True)
class Fitted:
    """The messages to send, how many tokens the answer may use, and what was cut."""

    messages: list[BaseMessage]
    prompt_tokens: int
    answer_tokens: int
    cut_tokens: int


def estimate_tokens(text: str) -> int:
    """A conservative token estimate for the local model's tokenizer."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def prompt_tokens(messages: list[BaseMessage]) -> int:
    """The estimated tokens of a whole prompt."""
    return sum(estimate_tokens(m.text) + MESSAGE_OVERHEAD for m in messages)


def window_text(text: str, max_chars: int) -> str:
    """The text cut to about `max_chars`: head and tail kept on line boundaries, a note between."""
    if len(text) <= max_chars:
        return text
    lines = text.splitlines(keepends=True)
    head_budget, tail_budget = max_chars * 2 // 3, max_chars // 3
    head: list[str] = []
    size = 0
    while lines and size + len(lines[0]) <= head_budget:
        size += len(lines[0])
        head.append(lines.pop(0))
    tail: list[str] = []
    size = 0
    while lines and size + len(lines[-1]) <= tail_budget:
        size += len(lines[-1])
        tail.insert(0, lines.pop())
    if not head and not tail:  # one huge line: cut by characters
        return (
            f"{text[:head_budget]}\n[... {len(text) - max_chars} characters cut ...]\n"
            + (text[-tail_budget:])
        )
    note = f"[... {len(lines)} lines cut to fit the model's context ...]\n"
    return "".join(head) + note + "".join(tail)


def fenced_bodies(text: str) -> list[tuple[int, int, str]]:
    """(start, end, info string) of the body of every fenced block in a text."""
    return [(m.start("body"), m.end("body"), m["info"].strip()) for m in _FENCED.finditer(text)]


def subject_block(messages: list[BaseMessage]) -> tuple[int, int] | None:
    """(message, start) of the code the task is about: the last non-JSON block of the last ask."""
    # It is windowed last: the answer rewrites it, so whatever is cut from it is lost.
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, HumanMessage) and isinstance(message.content, str):
            blocks = [b for b in fenced_bodies(message.text) if b[2] != "json"]
            return (index, blocks[-1][0]) if blocks else None
    return None


def subject_tokens(messages: list[BaseMessage]) -> int:
    """The estimated tokens of the subject block: its rewrite needs at least as many."""
    subject = subject_block(messages)
    if subject is None:
        return 0
    index, start = subject
    end = next(e for s, e, _ in fenced_bodies(messages[index].text) if s == start)
    return estimate_tokens(messages[index].text[start:end])


def _largest_cut(
    messages: list[BaseMessage], keep: tuple[int, int] | None, stuck: set[tuple[int, int]]
) -> tuple[int, int, int]:
    """(message, start, end) of the largest span worth windowing: context blocks first.

    The subject block and its message are never windowed (what is cut from code the answer
    rewrites would be lost), nor spans that windowing no longer shortens (`stuck`).
    """
    spans = [
        (end - start, i, start, end)
        for i, m in enumerate(messages)
        if isinstance(m.content, str)
        for start, end, _ in fenced_bodies(m.text)
        if (i, start) != keep and (i, start) not in stuck and end - start > KEEP_CHARS
    ]
    if not spans:  # no context block left to shrink: window other whole messages
        spans = [
            (len(m.text), i, 0, len(m.text))
            for i, m in enumerate(messages)
            if isinstance(m.content, str)
            and len(m.text) > KEEP_CHARS
            and (keep is None or i != keep[0])
            and (i, 0) not in stuck
        ]
    if not spans:
        return -1, 0, 0
    _, index, start, end = max(spans)
    return index, start, end


def fit_messages(messages: list[BaseMessage], context: int, min_answer: int) -> Fitted:
    """The prompt windowed so that at least `min_answer` tokens are left for the answer.

    When even that cannot be done the answer gets what is left; ContextTooSmall when that
    is less than SAFETY_TOKENS.
    """
    fitted = list(messages)
    before = prompt_tokens(fitted)
    min_answer = max(min_answer, subject_tokens(fitted) + REWRITE_MARGIN)
    budget = context - min_answer - SAFETY_TOKENS
    over = before - budget
    stuck: set[tuple[int, int]] = set()
    while over > 0:
        index, start, end = _largest_cut(fitted, subject_block(fitted), stuck)
        if index < 0:
            break
        text = fitted[index].text
        target = max(KEEP_CHARS, end - start - math.ceil(over * CHARS_PER_TOKEN) - 80)
        window = window_text(text[start:end], target)
        if len(window) >= end - start:  # the note outweighs the cut: leave this span be
            stuck.add((index, start))
            continue
        windowed = text[:start] + window + text[end:]
        fitted[index] = fitted[index].model_copy(update={"content": windowed})
        over = prompt_tokens(fitted) - budget
    after = prompt_tokens(fitted)
    room = context - after - SAFETY_TOKENS
    if room < SAFETY_TOKENS:
        raise ContextTooSmall(
            f"a prompt of about {after} tokens leaves no room for an answer in a {context}-token "
            "context, even with every other block windowed; give this task a smaller file "
            "or a model with a larger context"
        )
    return Fitted(fitted, after, room, max(0, before - after))
