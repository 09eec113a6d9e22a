"""Counts the input and output tokens of every model call made while a meter is open."""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from langchain_core.messages import BaseMessage


def estimate_tokens(text: str) -> int:
    """A deterministic token estimate: one token per four characters."""
    return len(text) // 4


class TokenMeter:
    """Input and output tokens of the calls made while it is open."""

    def __init__(self) -> None:
        self.input_tokens = 0
        self.output_tokens = 0
        self._lock = threading.Lock()  # graphs may call the model from worker threads

    @property
    def tokens(self) -> int:
        """Input and output tokens together."""
        return self.input_tokens + self.output_tokens

    def record(self, input_tokens: int, output_tokens: int) -> None:
        """Count one call."""
        with self._lock:
            self.input_tokens += input_tokens
            self.output_tokens += output_tokens


_OPEN: ContextVar[TokenMeter | None] = ContextVar("token_meter", default=None)


@contextmanager
def metering() -> Iterator[TokenMeter]:
    """A meter counting the calls made in this context (and the tasks it starts)."""
    meter = TokenMeter()
    reset = _OPEN.set(meter)
    try:
        yield meter
    finally:
        _OPEN.reset(reset)


def count_call(message: BaseMessage, prompt: list[BaseMessage]) -> int:
    """Tokens one call used (its usage metadata when reported, else an estimate), counted
    in and out on the open meter."""
    usage = getattr(message, "usage_metadata", None)
    if usage:
        total = int(usage.get("total_tokens", 0))
        sent = min(int(usage.get("input_tokens", 0)), total)
    else:
        sent = estimate_tokens("".join(m.text for m in prompt))
        total = sent + estimate_tokens(message.text)
    meter = _OPEN.get()
    if meter is not None:
        meter.record(sent, total - sent)
    return total
