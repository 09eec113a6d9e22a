"""Watching a ticket: its status, redrawn in place on a terminal, else a line per change.

Read over Temporal's HTTP API as `status` reads it (so the first frame comes as fast), and over
gRPC from the first read that API cannot make. Watching only reads: Ctrl-C stops the watching,
never the ticket.
"""

import argparse
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text

from cli.status.as_json import StatusJson, as_json, moment
from cli.status.endings import ENDED
from cli.status.over_http import ticket_status
from cli.terminal import CommandError, check_key, console, temporal_endpoints
from graphs.test_summary import tests_line
from llm import cost_text
from temporal import http_api as api
from temporal_settings import TemporalEndpoints
from vocabulary.ticket_states import Phase, Status

if TYPE_CHECKING:  # annotations only: the command line shows the JSON, building no models
    from workflows.ticket.messages import TicketStatus

POLL_SECONDS = 0.5


def live_tokens(current: StatusJson) -> int:
    """Tokens so far, with those of an implementation still under way (its step in flight)."""
    in_flight = current["phase"] == Phase.IMPLEMENTATION and current.get("step") is not None
    running = current.get("implementation") if in_flight else None
    return int(current.get("tokens", 0)) + (running.get("tokens", 0) if running else 0)


def facts(
    status: "StatusJson | TicketStatus", now: datetime | None = None
) -> list[tuple[str, str]]:
    """What the ticket is doing, as (label, value) pairs; `now` adds the step's elapsed time."""
    current = as_json(status)
    rows: list[tuple[str, str]] = []
    message = current.get("message", "")
    if current["status"].startswith("awaiting"):
        rows.append(("waiting", message.removeprefix("Waiting ")))
    elif message:
        rows.append(("doing", message))
    if step := current.get("step"):
        elapsed = ""
        started = moment(current.get("step_started_at"))
        if now is not None and started is not None:
            elapsed = f" ({duration((now - started).total_seconds())})"
        rows.append(("step", step + elapsed))
    progress = current.get("implementation")
    if progress is not None and current["phase"] == Phase.IMPLEMENTATION:
        revision = f"{progress.get('revision', 0)} of {progress.get('max_revisions', 0)}"
        rows.append(("revision", f"{revision}: {progress.get('stage', '')}"))
        if progress.get("writing"):
            rows.append(("writing", ", ".join(progress["writing"])))
        if progress.get("tests") is not None:
            rows.append(("tests", tests_line(progress["tests"])))
        if progress.get("qa_verdict"):
            rows.append(("QA", progress["qa_verdict"]))
    if current.get("pr_url"):
        rows.append(("pull request", current["pr_url"]))
    token_budget = current.get("token_budget")
    budget = f" of {token_budget:,}" if token_budget else ""
    tokens = live_tokens(current)
    rows.append(("tokens", f"{tokens:,}{budget}"))
    # A step under way reports its tokens as it goes; its cost comes when it finishes.
    pending = " and the step under way" if tokens > current.get("tokens", 0) else ""
    cost = cost_text.text(current.get("cost") or {}, current.get("cost_cap"))
    rows.append(("cost", cost + pending))
    return rows


def duration(seconds: float) -> str:
    """`42s`, `3m 05s`, `1h 02m`."""
    whole = max(0, int(seconds))
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m {whole % 60:02d}s"
    return f"{whole // 3600}h {whole % 3600 // 60:02d}m"


def progress_line(status: "StatusJson | TicketStatus") -> str:
    """One line for a log: the ticket's facts without the clock, so it changes only with them."""
    current = as_json(status)
    head = f"{current['key']} {current['phase']}/{current['status']}"
    return " | ".join([head, *(f"{label}: {value}" for label, value in facts(current))])


def progress_view(current: StatusJson, now: datetime) -> RenderableType:
    """The ticket's progress as a small table for a terminal, redrawn in place."""
    title = Text(f"{current['key']}  {current['phase']} / {current['status']}", style="bold")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for label, value in facts(current, now):
        grid.add_row(label, value)
    return Group(title, grid)


def poll(
    read: Callable[[], StatusJson | None],
    show: Callable[[StatusJson], None],
    interval: float,
) -> StatusJson:
    """Read the ticket's status until it ends, handing each answer to `show`; a read that gets
    no answer (a worker slow to answer the query) is made again."""
    while True:
        current = read()
        if current is not None:
            show(current)
            if current["status"] in ENDED:
                return current
        time.sleep(interval)


class StatusReader:
    """Reads a ticket's status over HTTP, and over gRPC from the first read HTTP cannot make
    (no API there, an encrypted or stored payload); None while no worker answers."""

    def __init__(self, settings: TemporalEndpoints, key: str) -> None:
        self._settings, self._key = settings, key
        self._grpc: GrpcReader | None = None

    def __call__(self) -> StatusJson | None:
        if self._grpc is None:
            try:
                return ticket_status(self._settings, self._key)
            except api.QueryUnanswered:
                return None
            except api.Unreadable:
                self._grpc = GrpcReader(self._key)
        return self._grpc.read()

    def close(self) -> None:
        if self._grpc is not None:
            self._grpc.close()


class GrpcReader:
    """One ticket's status over gRPC for synchronous code: one client on an event loop of its own,
    run for each read, so that Ctrl-C interrupts a read as it interrupts the sleep between."""

    def __init__(self, key: str) -> None:
        # Imported only here: the gRPC client and the full settings take a second to import.
        import asyncio

        from cli.commands import connect
        from cli.status.over_grpc import NeverStarted, StatusUnreadable, read_status
        from config import CommandLineSettings, get_settings

        self._key, self._read = key, read_status
        self._never_started, self._unreadable = NeverStarted, StatusUnreadable
        settings = get_settings(CommandLineSettings)
        self._timeout = timedelta(seconds=settings.status_query_seconds)
        self._loop = asyncio.new_event_loop()
        self._client: Any = self._loop.run_until_complete(connect(settings))

    def read(self) -> StatusJson | None:
        """The status now; None when it cannot be read yet (it is asked again)."""
        try:
            current = self._loop.run_until_complete(
                self._read(self._client, self._key, self._timeout)
            )
        except self._never_started as err:
            raise CommandError(str(err)) from None
        except self._unreadable:
            return None
        return as_json(current)

    def close(self) -> None:
        self._loop.close()


class Display:
    """Shows status answers: redrawn in place on a terminal, one line per change elsewhere."""

    def __init__(self, out: Console, key: str) -> None:
        self._out, self._key = out, key
        self._latest: StatusJson | None = None
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

    def show(self, current: StatusJson) -> None:
        """Take the latest answer: the terminal view redraws itself; elsewhere print if changed."""
        self._latest = current
        if self._live is None and (line := progress_line(current)) != self._last_line:
            self._last_line = line
            self._out.print(line, markup=False, soft_wrap=True)

    def _view(self) -> RenderableType:
        if self._latest is None:
            return Text(f"{self._key}: asking the workflow…")
        return progress_view(self._latest, datetime.now(UTC))


def follow(
    settings: TemporalEndpoints, key: str, out: Console, interval: float = POLL_SECONDS
) -> int:
    """Show the ticket's progress until it ends: 0 when it completed, 1 when it ended otherwise."""
    reader = StatusReader(settings, key)
    try:
        with Display(out, key) as display:
            final = poll(reader, display.show, interval)
    except KeyboardInterrupt:
        out.print(f"stopped watching {key}; it goes on (starter.py status {key})", markup=False)
        return 0
    finally:
        reader.close()
    out.print(f"{key} {final['status']}: {final.get('message', '')}", markup=False)
    return 0 if final["status"] == Status.COMPLETED else 1


def watch(args: argparse.Namespace) -> int:
    """`starter.py watch KEY`: the ticket's progress until it ends."""
    return follow(temporal_endpoints(), check_key(args.key), console())
