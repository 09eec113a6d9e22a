"""How the command line shows a ticket: the status, the phase usage table and the ticket list."""

import io
from datetime import datetime
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from cli.status.as_json import StatusJson, as_json, moment
from cli.status.review_lines import review_lines
from llm import cost_text
from llm.cost_text import CostJson

if TYPE_CHECKING:  # annotations only: the command line renders without building the models
    from workflows.ticket.messages import PhaseUsage, TicketStatus

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
    status: "TicketStatus | StatusJson",
    link: str,
    now: datetime | None = None,
    full: bool = False,
) -> RenderableType:
    """The status query's answer; `now` times the phase under way, `full` shows whole decisions."""
    current = as_json(status)
    lines = [
        Text(f"{current['key']}: {current['phase']} / {current['status']}", style="bold"),
        Text(f"  {current.get('message', '')}"),
    ]
    questions = current.get("questions") or []
    lines += [Text(f"  question {n}: {q['text']}") for n, q in enumerate(questions, 1)]
    pull_request = current.get("pr_url")
    if pull_request and current.get("pr_draft_reason"):
        pull_request += f" (draft: {current['pr_draft_reason']})"
    for label, value in (
        ("plan version", current.get("plan_version") or None),
        ("branch", current.get("branch")),
        ("pull request", pull_request),
        ("worker version", current.get("worker_version")),
    ):
        if value:
            lines.append(Text(f"  {label}: {value}"))
    lines += [Text(line) for line in review_lines(current)]
    # A failed environment build, a sandbox limit hit, an unsandboxed run.
    notes = (current.get("tests_note") or "").splitlines()
    lines += [Text(f"  tests: {line}") for line in notes if line.strip()]
    for decision in current.get("decisions") or []:
        when = f"{moment(decision['at']):%Y-%m-%d %H:%M}"
        unsigned = " (unsigned delivery)" if decision.get("unsigned") else ""
        head = f"  {when} {decision['author']} {decision['kind']}{unsigned}"
        text = decision.get("text") or ""
        if not text:
            lines.append(Text(head))
        elif full:
            body = "\n".join(f"      {line}" for line in text.strip().splitlines())
            lines.append(Text(f"{head}:\n{body}"))
        else:
            lines.append(Text(f"{head}: {preview(text)}"))
    steering = current.get("steering") or {}
    for guidance in steering.get("guidance") or []:
        used = guidance.get("used_in_revision")
        state = (
            "pending: the next revision is given it"
            if used is None
            else f"given to revision {used}"
        )
        lines.append(Text(f"  guidance {guidance['id']} ({state}): {preview(guidance['text'])}"))
    if stopper := steering.get("stop_requested_by"):
        lines.append(Text(f"  stop asked by {stopper}: after this revision"))
    if unsigned_deliveries := current.get("unsigned_deliveries"):
        lines.append(
            Text(
                f"  unsigned: {unsigned_deliveries} webhook deliveries reached this "
                "ticket without a checked signature (TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED)"
            )
        )
    token_budget = current.get("token_budget")
    budget = f" of {token_budget:,}" if token_budget else ""
    cost = current.get("cost") or {}
    tokens = f"{current.get('tokens', 0):,}{budget} ({cost_text.split(cost)})"
    lines.append(Text(f"  model tokens: {tokens}"))
    lines.append(Text(f"  cost: {cost_text.text(cost, current.get('cost_cap'))}"))
    parts: list[RenderableType] = [*lines]
    if usage := current.get("usage"):
        parts += [Text(""), usage_table(usage, now), Text("")]
    parts.append(Text(f"  {link}"))
    return Group(*parts)


def usage_table(usage: "list[PhaseUsage] | list[StatusJson]", now: datetime | None = None) -> Table:
    """Time, model tokens and their cost per phase, with the time spent waiting on people apart.

    A phase still under way counts up to `now` (its start when not given).
    """
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1), pad_edge=False)
    table.add_column("phase")
    for name in ("working", "waiting", "tokens", "in", "out", "cost"):
        table.add_column(name, justify="right")
    total_work = total_wait = 0.0
    total_tokens, costs = 0, list[CostJson]()
    for phase in map(as_json, usage):
        started = moment(phase["started_at"])
        ended, waiting_since = moment(phase.get("ended_at")), moment(phase.get("waiting_since"))
        assert started is not None
        end = ended or max(now or started, started)
        wait = phase.get("waiting_seconds", 0.0)
        if waiting_since is not None and ended is None:
            wait += max(0.0, (end - waiting_since).total_seconds())
        work = (end - started).total_seconds() - wait
        tokens, cost = phase.get("tokens", 0), phase.get("cost") or {}
        total_work, total_wait = total_work + work, total_wait + wait
        total_tokens += tokens
        costs.append(cost)
        times = (f"{work:.1f}s", f"{wait:.1f}s")
        table.add_row(phase["phase"], *times, f"{tokens:,}", *cost_cells(cost))
    total_cost = cost_text.total(costs)
    times = (f"{total_work:.1f}s", f"{total_wait:.1f}s")
    table.add_row("total", *times, f"{total_tokens:,}", *cost_cells(total_cost), style="bold")
    if total_cost["unpriced_tokens"]:
        table.caption = f"cost: {cost_text.text(total_cost)}"
    return table


def cost_cells(cost: CostJson) -> tuple[str, str, str]:
    """Tokens in, tokens out and their cost, as table cells."""
    return (
        f"{cost.get('input_tokens', 0):,}",
        f"{cost.get('output_tokens', 0):,}",
        cost_text.short(cost),
    )


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
