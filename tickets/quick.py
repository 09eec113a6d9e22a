"""`status` and `list` over Temporal's HTTP API, with the gRPC client only when that cannot answer.

A ticket's status is read in a few tens of milliseconds this way; the gRPC client alone takes
longer than that to import. The answers are the same as the gRPC path's (tickets/cli.py).
"""

import argparse
from datetime import UTC, datetime
from typing import Any

from rich.console import Group, RenderableType

from config import Settings, get_settings
from tickets import temporal_http as api
from tickets.graph_list import is_graph_id, render_runs
from tickets.render import render_list, render_status
from tickets.terminal import CommandError, check_key
from workflows.messages import Phase, Status, TicketResult, TicketStatus

# What `commands.list_runs` gives for the same query: the run state's enum name, lower case.
RUN_STATE_PREFIX = "WORKFLOW_EXECUTION_STATUS_"


async def status(args: argparse.Namespace) -> RenderableType:
    """Where the ticket is, read over HTTP; over gRPC for graph runs and what HTTP cannot read."""
    settings = get_settings()
    if not is_graph_id(args.key):
        key = check_key(args.key)
        try:
            current = ticket_status(settings, key)
        except api.Unreadable:
            pass
        else:
            link = f"{settings.temporal_ui_url}/namespaces/{settings.temporal_namespace}"
            link += f"/workflows/ticket-{key}"
            return render_status(current, link, datetime.now(UTC), full=args.full)
    from tickets import cli

    return await cli.status(args)


async def list_tickets(args: argparse.Namespace) -> RenderableType:
    """Tickets known to Temporal, newest first, then graph runs; over gRPC if HTTP cannot."""
    settings = get_settings()
    try:
        tickets = [ticket_row(row) for row in runs(settings, "TicketWorkflow", args.status)]
        graphs = [graph_row(row) for row in runs(settings, "GraphWorkflow", args.status)]
    except api.Unreadable:
        from tickets import cli

        return await cli.list_tickets(args)
    table = render_list(tickets)
    return Group(table, render_runs(graphs)) if graphs else table


def ticket_status(settings: Settings, key: str) -> TicketStatus:
    """A running ticket's status query, or a completed one's recorded status."""
    workflow_id = f"ticket-{key}"
    described = api.describe(settings, workflow_id)
    info = described.get("workflowExecutionInfo", {})
    state = info.get("status")
    if state == api.RUNNING:
        try:
            return TicketStatus.model_validate(api.query(settings, workflow_id, "status"))
        except api.QueryUnanswered as err:
            attrs = api.search_attributes(info)
            raise CommandError(
                api.no_worker_answered(
                    key,
                    settings.status_query_seconds,
                    str(err),
                    attrs.get("Phase", Phase.REFINEMENT.value),
                    attrs.get("Status", Status.RUNNING.value),
                )  # fmt: skip
            ) from None
    if state == api.COMPLETED:
        return TicketResult.model_validate(api.result(settings, workflow_id)).as_status()
    raise api.Unreadable(f"a run that ended {state}: its failure is read over gRPC")


def runs(settings: Settings, workflow_type: str, status: str | None) -> list[dict[str, str]]:
    """The rows `commands.list_runs` gives, from the HTTP API."""
    query = f"WorkflowType = '{workflow_type}'"
    if status:
        query += f" AND `Status` = '{status}'"  # backquoted: SQL visibility reserves the word
    return [run_row(execution) for execution in api.list_runs(settings, query)]


def run_row(execution: dict[str, Any]) -> dict[str, str]:
    """One execution as a row: id, search attributes, start and run state."""
    attrs = api.search_attributes(execution)
    started = str(execution.get("startTime", ""))
    return {
        "id": str(execution.get("execution", {}).get("workflowId", "")),
        "ticket": str(attrs.get("TicketKey", "")),
        "status": str(attrs.get("Status", "")),
        "phase": str(attrs.get("Phase", "")),
        "started": started[:16].replace("T", " "),
        "run": str(execution.get("status", "")).removeprefix(RUN_STATE_PREFIX).lower(),
    }


def ticket_row(row: dict[str, str]) -> dict[str, str]:
    """A ticket's row of the list."""
    key = row["ticket"] or row["id"].removeprefix("ticket-")
    return {"key": key, **{k: row[k] for k in ("status", "phase", "started", "run")}}


def graph_row(row: dict[str, str]) -> dict[str, str]:
    """A graph run's row of the list."""
    return {"key": row["id"], **{k: row[k] for k in ("status", "phase", "started")}}
