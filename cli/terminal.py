"""What every subcommand shares and nothing heavy: key checks, the console, running a handler."""

import argparse
import re
from collections.abc import Callable, Coroutine
from typing import Any

from rich.console import Console, RenderableType

import temporal_settings
from encryption.errors import PayloadStoreError

KEY_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]+-[1-9][0-9]*$")
Answer = RenderableType | int | None
# A subcommand's function gives its answer, or a coroutine that gives it (the gRPC client's).
Handler = Callable[[argparse.Namespace], Answer | Coroutine[Any, Any, Answer]]


class CommandError(Exception):
    """A problem the user can fix; printed as one line."""


def check_key(key: str) -> str:
    """A Jira issue key like PROJ-123, or a clear error."""
    if not KEY_PATTERN.match(key):
        raise CommandError(f"'{key}' is not a Jira issue key; expected something like PROJ-123")
    return key


def temporal_endpoints() -> temporal_settings.TemporalSettings:
    """Where Temporal is, read as `config` reads it (without it); a malformed value is an error."""
    try:
        return temporal_settings.read()
    except ValueError as err:
        raise CommandError(str(err)) from None


def console() -> Console:
    """Standard output; outside a terminal plain text, wide enough that tables keep their rows."""
    out = Console(highlight=False)
    return out if out.is_terminal else Console(highlight=False, soft_wrap=True, no_color=True)


def run(handler: Handler, args: argparse.Namespace) -> int:
    """Carry out one subcommand and print its answer; a CommandError is one line on stderr."""
    out = console()
    try:
        answer = handler(args)
        if isinstance(answer, Coroutine):
            import asyncio  # only when needed: `status` and `list` answer without an event loop

            answer = asyncio.run(answer)
    except (CommandError, PayloadStoreError) as err:
        Console(stderr=True, highlight=False, soft_wrap=True).print(f"error: {err}", markup=False)
        return 1
    except KeyboardInterrupt:
        return 130
    if isinstance(answer, int):
        return answer
    if answer is not None:
        out.print(answer, markup=False) if isinstance(answer, str) else out.print(answer)
    return 0
