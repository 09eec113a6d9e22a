"""Watching a ticket: its status query, redrawn in place on a terminal, else a line per change.

Watching only reads: Ctrl-C stops the watching, never the ticket.
"""

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text
from temporalio.client import Client
from temporalio.service import RPCError, RPCStatusCode

from config import Settings
from graphs.progress import tests_line
from tickets.commands import CommandError, connect
from tickets.launch import workflow_id
from tickets.status import StatusUnreadable, read_status
from workflows.messages import Phase, Status, TicketStatus

POLL_SECONDS = 0.5
QUERY_TIMEOUT = timedelta(seconds=10)
ENDED = {Status.COMPLETED, Status.FAILED, Status.CANCELLED, Status.EXPIRED}


def live_tokens(current: TicketStatus) -> int:
    """Tokens so far, with those of an implementation still under way (its step in flight)."""
    in_flight = current.phase == Phase.IMPLEMENTATION and current.step is not None
    running = current.implementation if in_flight else None
    return current.tokens + (running.tokens if running else 0)


def facts(current: TicketStatus, now: datetime | None = None) -> list[tuple[str, str]]:
    """What the ticket is doing, as (label, value) pairs; `now` adds the step's elapsed time."""
    rows: list[tuple[str, str]] = []
    if current.status.value.startswith("awaiting"):
        rows.append(("waiting", current.message.removeprefix("Waiting ")))
    elif current.message:
        rows.append(("doing", current.message))
    if current.step:
        elapsed = ""
        if now is not None and current.step_started_at is not None:
            elapsed = f" ({duration((now - current.step_started_at).total_seconds())})"
        rows.append(("step", current.step + elapsed))
    progress = current.implementation
    if progress is not None and current.phase == Phase.IMPLEMENTATION:
        revision = f"{progress.revision} of {progress.max_revisions}"
        rows.append(("revision", f"{revision}: {progress.stage}"))
        if progress.writing:
            rows.append(("writing", ", ".join(progress.writing)))
        if progress.tests is not None:
            rows.append(("tests", tests_line(progress.tests)))
        if progress.qa_verdict:
            rows.append(("QA", progress.qa_verdict))
    if current.pr_url:
        rows.append(("pull request", current.pr_url))
    budget = f" of {current.token_budget:,}" if current.token_budget else ""
    rows.append(("tokens", f"{live_tokens(current):,}{budget}"))
    return rows


def duration(seconds: float) -> str:
    """`42s`, `3m 05s`, `1h 02m`."""
    whole = max(0, int(seconds))
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m {whole % 60:02d}s"
    return f"{whole // 3600}h {whole % 3600 // 60:02d}m"


def progress_line(current: TicketStatus) -> str:
    """One line for a log: the ticket's facts without the clock, so it changes only with them."""
    head = f"{current.key} {current.phase.value}/{current.status.value}"
    return " | ".join([head, *(f"{label}: {value}" for label, value in facts(current))])


def progress_view(current: TicketStatus, now: datetime) -> RenderableType:
    """The ticket's progress as a small table for a terminal, redrawn in place."""
    title = Text(f"{current.key}  {current.phase.value} / {current.status.value}", style="bold")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for label, value in facts(current, now):
        grid.add_row(label, value)
    return Group(title, grid)


async def poll(
    client: Client,
    key: str,
    show: Callable[[TicketStatus], None],
    interval: float,
    query_timeout: timedelta = QUERY_TIMEOUT,
) -> TicketStatus:
    """Read the ticket's status until it ends, handing each answer to `show`.

    A running ticket whose worker is slow to answer is asked again; one never started is an error.
    """
    try:
        await client.get_workflow_handle(workflow_id(key)).describe()
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            message = f"{key} has never been started; start it with: starter.py {key}"
            raise CommandError(message) from None
        raise CommandError(f"Temporal did not describe {key}: {err.message}") from err
    while True:
        try:
            current = await read_status(client, key, query_timeout)
        except StatusUnreadable:
            current = None
        if current is not None:
            show(current)
            if current.status in ENDED:
                return current
        await asyncio.sleep(interval)


class Display:
    """Shows status answers: redrawn in place on a terminal, one line per change elsewhere."""

    def __init__(self, out: Console, key: str) -> None:
        self._out, self._key = out, key
        self._latest: TicketStatus | None = None
        self._last_line = ""
        self._live: Live | None = None

    def __enter__(self) -> "Display":
        if self._out.is_terminal:
            self._live = Live(get_renderable=self._view, console=self._out, refresh_per_second=4)
            self._live.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def show(self, current: TicketStatus) -> None:
        """Take the latest answer: the terminal view redraws itself; elsewhere print if changed."""
        self._latest = current
        if self._live is None and (line := progress_line(current)) != self._last_line:
            self._last_line = line
            self._out.print(line, markup=False, soft_wrap=True)

    def _view(self) -> RenderableType:
        if self._latest is None:
            return Text(f"{self._key}: asking the workflow…")
        return progress_view(self._latest, datetime.now(UTC))


async def follow(settings: Settings, key: str, out: Console, interval: float = POLL_SECONDS) -> int:
    """Show the ticket's progress until it ends: 0 when it completed, 1 when it ended otherwise."""
    client = await connect(settings)
    try:
        with Display(out, key) as display:
            timeout = timedelta(seconds=settings.status_query_seconds)
            final = await poll(client, key, display.show, interval, timeout)
    except (KeyboardInterrupt, asyncio.CancelledError):
        out.print(f"stopped watching {key}; it goes on (starter.py status {key})", markup=False)
        return 0
    out.print(f"{key} {final.status.value}: {final.message}", markup=False)
    return 0 if final.status == Status.COMPLETED else 1
