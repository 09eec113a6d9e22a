"""How the command line shows a ticket: the status, the phase usage table and the ticket list."""

import io
from datetime import datetime
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from tickets.review_lines import review_lines

if TYPE_CHECKING:  # annotations only: `list` renders without building the status models
    from graphs.cost import ModelCost
    from workflows.status_messages import PhaseUsage, TicketStatus

PREVIEW_CHARS = 100


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """The text on one line, whitespace collapsed, cut at `limit` characters with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def to_text(renderable: RenderableType, width: int = 120) -> str:
    """What a renderable prints on a plain (not a terminal) output of that width."""
    out = io.StringIO()
    Console(file=out, width=width, no_color=True, highlight=False).print(renderable)
    return out.getvalue()


def render_status(
    current: "TicketStatus", link: str, now: datetime | None = None, full: bool = False
) -> RenderableType:
    """The status query's answer; `now` times the phase under way, `full` shows whole decisions."""
    lines = [
        Text(f"{current.key}: {current.phase.value} / {current.status.value}", style="bold"),
        Text(f"  {current.message}"),
    ]
    lines += [Text(f"  question {n}: {q.text}") for n, q in enumerate(current.questions, 1)]
    pull_request = current.pr_url
    if pull_request and current.pr_draft_reason:
        pull_request += f" (draft: {current.pr_draft_reason})"
    for label, value in (
        ("plan version", current.plan_version or None),
        ("branch", current.branch),
        ("pull request", pull_request),
    ):
        if value:
            lines.append(Text(f"  {label}: {value}"))
    lines += [Text(line) for line in review_lines(current)]
    # A failed environment build, a sandbox limit hit, an unsandboxed run.
    notes = current.tests_note.splitlines()
    lines += [Text(f"  tests: {line}") for line in notes if line.strip()]
    for decision in current.decisions:
        when = decision.at.strftime("%Y-%m-%d %H:%M")
        unsigned = " (unsigned delivery)" if decision.unsigned else ""
        head = f"  {when} {decision.author} {decision.kind}{unsigned}"
        if not decision.text:
            lines.append(Text(head))
        elif full:
            body = "\n".join(f"      {line}" for line in decision.text.strip().splitlines())
            lines.append(Text(f"{head}:\n{body}"))
        else:
            lines.append(Text(f"{head}: {preview(decision.text)}"))
    for guidance in current.steering.guidance:
        used = guidance.used_in_revision
        state = (
            "pending: the next revision is given it"
            if used is None
            else f"given to revision {used}"
        )
        lines.append(Text(f"  guidance {guidance.id} ({state}): {preview(guidance.text)}"))
    if current.steering.stop_requested_by:
        lines.append(
            Text(f"  stop asked by {current.steering.stop_requested_by}: after this revision")
        )
    if current.unsigned_deliveries:
        lines.append(
            Text(
                f"  unsigned: {current.unsigned_deliveries} webhook deliveries reached this "
                "ticket without a checked signature (TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED)"
            )
        )
    budget = f" of {current.token_budget:,}" if current.token_budget else ""
    lines.append(Text(f"  model tokens: {current.tokens:,}{budget} ({current.cost.split()})"))
    lines.append(Text(f"  cost: {current.cost.text(current.cost_cap)}"))
    parts: list[RenderableType] = [*lines]
    if current.usage:
        parts += [Text(""), usage_table(current.usage, now), Text("")]
    parts.append(Text(f"  {link}"))
    return Group(*parts)


def usage_table(usage: "list[PhaseUsage]", now: datetime | None = None) -> Table:
    """Time, model tokens and their cost per phase, with the time spent waiting on people apart.

    A phase still under way counts up to `now` (its start when not given).
    """
    from graphs.cost import ModelCost  # here: `list` renders no model and imports no pydantic

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1), pad_edge=False)
    table.add_column("phase")
    for name in ("working", "waiting", "tokens", "in", "out", "cost"):
        table.add_column(name, justify="right")
    total_work = total_wait = 0.0
    total_tokens, total_cost = 0, ModelCost()
    for phase in usage:
        end = phase.ended_at or max(now or phase.started_at, phase.started_at)
        wait = phase.waiting_seconds
        if phase.waiting_since is not None and phase.ended_at is None:
            wait += max(0.0, (end - phase.waiting_since).total_seconds())
        work = (end - phase.started_at).total_seconds() - wait
        total_work, total_wait = total_work + work, total_wait + wait
        total_tokens, total_cost = total_tokens + phase.tokens, total_cost.plus(phase.cost)
        times = (f"{work:.1f}s", f"{wait:.1f}s")
        table.add_row(phase.phase.value, *times, f"{phase.tokens:,}", *cost_cells(phase.cost))
    times = (f"{total_work:.1f}s", f"{total_wait:.1f}s")
    table.add_row("total", *times, f"{total_tokens:,}", *cost_cells(total_cost), style="bold")
    if total_cost.unpriced_tokens:
        table.caption = f"cost: {total_cost.text()}"
    return table


def cost_cells(cost: "ModelCost") -> tuple[str, str, str]:
    """Tokens in, tokens out and their cost, as table cells."""
    return f"{cost.input_tokens:,}", f"{cost.output_tokens:,}", cost.short()


def render_list(rows: list[dict[str, str]]) -> RenderableType:
    """Tickets as a table, newest first."""
    if not rows:
        return Text("no tickets")
    table = Table(box=None, padding=(0, 2, 0, 0), pad_edge=False, header_style="bold")
    for name in ("KEY", "STATUS", "PHASE", "STARTED"):
        table.add_column(name, no_wrap=True)
    for row in rows:
        table.add_row(row["key"], row["status"], row["phase"], row["started"])
    return table
