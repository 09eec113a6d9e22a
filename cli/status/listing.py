"""`list` over Temporal's HTTP API: tickets and graph runs, without building any model.

Over gRPC as before (cli/handlers.py), with the same rows, when that API cannot answer.
"""

import argparse
from collections.abc import Coroutine
from typing import Any

from rich.console import Group, RenderableType

from cli.graphs.listing import render_runs
from cli.status.render import render_list
from cli.terminal import Answer, temporal_endpoints
from temporal import http_api as api
from temporal_settings import TemporalEndpoints


def list_tickets(args: argparse.Namespace) -> RenderableType | Coroutine[Any, Any, Answer]:
    """Tickets known to Temporal, newest first, then graph runs; over gRPC if HTTP cannot."""
    settings = temporal_endpoints()
    try:
        tickets = [ticket_row(row) for row in runs(settings, "TicketWorkflow", args.status)]
        graphs = [graph_row(row) for row in runs(settings, "GraphWorkflow", args.status)]
    except api.Unreadable:
        from cli import handlers  # the gRPC client

        return handlers.list_tickets(args)
    table = render_list(tickets)
    return Group(table, render_runs(graphs)) if graphs else table


def runs(
    settings: TemporalEndpoints, workflow_type: str, status: str | None
) -> list[dict[str, str]]:
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
        "run": str(execution.get("status", "")).removeprefix(api.RUN_STATE_PREFIX).lower(),
    }


def ticket_row(row: dict[str, str]) -> dict[str, str]:
    """A ticket's row of the list."""
    key = row["ticket"] or row["id"].removeprefix("ticket-")
    return {"key": key, **{k: row[k] for k in ("status", "phase", "started", "run")}}


def graph_row(row: dict[str, str]) -> dict[str, str]:
    """A graph run's row of the list."""
    return {"key": row["id"], **{k: row[k] for k in ("status", "phase", "started")}}
