"""`status` over Temporal's HTTP API, importing only what that needs (`list`: listing.py).

A ticket's status is read this way in tens of milliseconds whatever state its run is in (never
started, running, completed, failed, cancelled, terminated): the gRPC client alone takes longer
than that to import, and `config` (pydantic-settings) longer still. Graph runs, and what the
HTTP API cannot read whole, go over gRPC as before (cli/handlers.py), with the same answers.
"""

import argparse
from collections.abc import Coroutine
from datetime import UTC, datetime
from typing import Any

from rich.console import RenderableType

from cli.graphs.listing import is_graph_id
from cli.status.over_http import ticket_status
from cli.status.render import render_status
from cli.terminal import Answer, CommandError, check_key, temporal_endpoints
from temporal import http_api as api

Later = Coroutine[Any, Any, Answer]  # the gRPC path's answer, run by `cli.terminal.run`


def status(args: argparse.Namespace) -> RenderableType | Later:
    """Where the ticket is, read over HTTP; over gRPC for graph runs and what HTTP cannot read."""
    if not is_graph_id(args.key):
        key = check_key(args.key)
        settings = temporal_endpoints()
        try:
            current = ticket_status(settings, key)
        except api.QueryUnanswered as err:
            raise CommandError(str(err)) from None
        except api.Unreadable:
            pass
        else:
            link = f"{settings.temporal_ui_url}/namespaces/{settings.temporal_namespace}"
            link += f"/workflows/ticket-{key}"
            return render_status(current, link, datetime.now(UTC), full=args.full)
    from cli import handlers  # the gRPC client

    return handlers.status(args)
