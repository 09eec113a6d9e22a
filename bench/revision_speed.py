"""Seconds per revision on the local model: one server slot against several, and what the
prompt cache serves.

    python -m bench.revision_speed [--slots 1 2] [--revisions 2] [TICKET ...]

For each quality-benchmark ticket (default: three with one to three files to change) it builds
the code writers' real prompts (`worker_messages`) for the files the ticket's reference
changes, as the implementation loop would for a plan of those files, and sends each revision's
calls at once, as the loop's fan-out does, then the QA review's prompt (`review_prompt`) of the
reference's change. Revision 2 carries feedback, so each prompt differs from its first
version only from there on, and its review only from the diff on. For each slot count it
starts `llama-server` with `TICKETSMITH_LOCAL_MODEL_SLOTS` slots on a free port, and prints
per revision the wall seconds, the prompt tokens per call, the share of them the server's
prompt cache served, the tokens written, and the review's seconds and cached share; then the
mean seconds per revision of each slot count side by side. It needs the local model
(`make local-model`) and exits 2 without it.
"""

import argparse
import asyncio
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from langchain_core.messages import AIMessage

from bench.quality.reference_plan import reference_input
from bench.quality.tickets import Ticket, TicketError, load_tickets
from bench.support.local_server import local_server
from config import get_settings
from graphs.implementation.prepare import prepare
from graphs.implementation.review import review_prompt
from graphs.implementation.state import ImplementationState, Review, WorkerState
from graphs.implementation.worker.answer import bounded
from graphs.implementation.worker.prompt import worker_messages
from graphs.implementation.worker.window import choose_window
from graphs.schemas import FileChange, TestReport
from harness.processes import free_port
from llm.structured import structured_messages
from localmodel.chat import LocalChatModel, cached_tokens, local_chat_model
from localmodel.server import (
    LocalModelMissingError,
)

DEFAULT_TICKETS = ["sensor-humidity", "cart-discount", "slug-separator"]
FEEDBACK = (
    "The last revision left tests failing in this file; the output of the first:\n"
    "AssertionError: assert the value the ticket states == the value the code returned\n"
    "Change only what the ticket asks, and keep every other line as it is."
)


@dataclass
class Call:
    """One code writer's call: prompt tokens, those the cache served, tokens written."""

    prompt: int
    cached: int
    written: int


@dataclass
class RevisionTime:
    """One revision of one ticket: its wall seconds, its writers' calls and its review."""

    ticket: str
    revision: int
    seconds: float
    calls: list[Call]
    review_seconds: float
    review: Call


def worker_states(ticket: Ticket, repo: Path) -> list[WorkerState]:
    """The code writers' states of revision 1: one per file the reference changes."""
    shared = reference_input(ticket, repo)
    prepared = prepare(ImplementationState(**shared))  # the assignments the loop would make
    return [
        WorkerState(
            **shared,
            assignment=assignment,
            index=prepared["index"],
            revision=1,
            current=None,
            feedback="",
        )  # fmt: skip
        for assignment in prepared["assignments"]
    ]


async def write_file(model: LocalChatModel, state: WorkerState) -> Call:
    """One code writer's call, as the worker node makes it (no tools, no retries)."""
    target = state["repo_dir"] / state["assignment"]["file"].path
    current = target.read_text() if target.is_file() else ""
    planned = state["assignment"]["file"]
    window = choose_window(
        current, f"{planned.purpose} {state['feedback']} {state['plan'].summary}"
    )
    answer = await bounded(model, window.text).ainvoke(worker_messages(state, window, current))
    return usage_call(answer)


def with_revision(state: WorkerState, revision: int, feedback: str) -> WorkerState:
    """The state of the same file in another revision, told `feedback`."""
    changed = WorkerState(**state)
    changed["revision"], changed["feedback"] = revision, feedback
    return changed


def usage_call(answer: object) -> Call:
    """A call's tokens from the message it answered with."""
    usage = answer.usage_metadata if isinstance(answer, AIMessage) else None
    if not usage:
        return Call(0, 0, 0)
    return Call(usage["input_tokens"], cached_tokens(usage), usage["output_tokens"])


async def review_call(model: LocalChatModel, ticket: Ticket, revision: int) -> Call:
    """The QA review of the reference's change as revision `revision` gave it (each later
    revision's change and test output a little different), as the review node asks it."""
    shared = reference_input(ticket, ticket.repo_dir)
    files = {
        path: FileChange(path=path, content=f"{text}# revision {revision}\n")
        for path, text in reference_sources(ticket).items()
    }
    output = f"FAILED tests/test_hidden.py::test_the_ticket - AssertionError (revision {revision})"
    state = ImplementationState(
        **shared, revision=revision, files=files,
        tests=TestReport(passed=False, exit_code=1, output=output),
    )  # fmt: skip
    system, human = review_prompt(state)
    asked = model.with_structured_output(Review, method="json_schema", include_raw=True)
    answer = await asked.ainvoke(structured_messages(system, human, Review))
    return usage_call(answer["raw"] if isinstance(answer, dict) else None)


def reference_sources(ticket: Ticket) -> dict[str, str]:
    """The reference's version of each file it changes."""
    return {path: (ticket.reference_dir / path).read_text() for path in ticket.reference_paths()}


async def revisions_of(model: LocalChatModel, ticket: Ticket, count: int) -> list[RevisionTime]:
    """`count` revisions of one ticket, each revision's calls sent at once, then its review."""
    states = worker_states(ticket, ticket.repo_dir)
    measured: list[RevisionTime] = []
    for revision in range(1, count + 1):
        feedback = FEEDBACK if revision > 1 else ""
        sent = [with_revision(state, revision, feedback) for state in states]
        began = time.monotonic()
        calls = await asyncio.gather(*(write_file(model, state) for state in sent))
        written = time.monotonic()
        review = await review_call(model, ticket, revision)
        finished = time.monotonic()
        measured.append(
            RevisionTime(
                ticket.name, revision, finished - began, list(calls), finished - written, review
            )
        )
    return measured


def row(slots: int, measured: RevisionTime) -> str:
    """One revision's line of the table."""
    calls = measured.calls
    prompt = sum(c.prompt for c in calls)
    cached = sum(c.cached for c in calls) / prompt if prompt else 0.0
    review = measured.review
    return (
        f"{slots:>5}  {measured.ticket:<18}{measured.revision:>4}{len(calls):>6}"
        f"{measured.seconds:>9.1f}{prompt / len(calls):>13.0f}{cached:>8.0%}"
        f"{sum(c.written for c in calls) / len(calls):>9.0f}"
        f"{measured.review_seconds:>10.1f}{review.prompt:>8}"
        f"{review.cached / review.prompt if review.prompt else 0.0:>8.0%}"
    )


async def main(slot_counts: list[int], revisions: int, tickets: list[Ticket]) -> None:
    """Every ticket's revisions for each slot count, then the means side by side."""
    base = get_settings()
    means: dict[int, float] = {}
    print(
        f"{'slots':>5}  {'ticket':<18}{'rev':>4}{'calls':>6}{'seconds':>9}{'prompt/call':>13}"
        f"{'cached':>8}{'written':>9}{'review s':>10}{'prompt':>8}{'cached':>8}"
    )
    for slots in slot_counts:
        settings = base.model_copy(
            update={"local_model_slots": slots, "local_model_port": free_port()}
        )
        async with local_server(settings):
            model = local_chat_model(
                f"http://{settings.local_model_host}:{settings.local_model_port}/v1",
                context=settings.local_model_context,
            )
            times: list[float] = []
            for ticket in tickets:
                for measured in await revisions_of(model, ticket, revisions):
                    print(row(slots, measured), flush=True)
                    times.append(measured.seconds)
            means[slots] = statistics.fmean(times)
    first = means[slot_counts[0]]
    print("\nmean seconds per revision: " + ", ".join(
        f"{slots} slot{'s' if slots > 1 else ''} {mean:.1f} s ({mean / first:.2f}x)"
        for slots, mean in means.items()
    ))  # fmt: skip


def cli(argv: list[str] | None = None) -> int:
    """Entry point of `python -m bench.revision_speed`."""
    parser = argparse.ArgumentParser(prog="python -m bench.revision_speed", description=__doc__)
    parser.add_argument("tickets", nargs="*", default=DEFAULT_TICKETS)
    parser.add_argument("--slots", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--revisions", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        asyncio.run(main(args.slots, args.revisions, load_tickets(args.tickets)))
    except (LocalModelMissingError, TicketError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(cli())
