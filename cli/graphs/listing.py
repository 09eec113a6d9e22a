"""Graph runs as the ticket commands see them: which ids are runs, and the list of runs.

Apart from cli/graphs/runs.py so that `status` and `list` of tickets never load the graph
definitions' models.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # `list` imports this module; config costs more than the listing itself
    from config import CommandLineSettings

PREFIX = "graph-"


def is_graph_id(text: str) -> bool:
    """Whether a command-line argument names a graph run rather than a ticket."""
    return text.startswith(PREFIX)


async def list_graph_runs(
    settings: "CommandLineSettings", status_filter: str | None
) -> list[dict[str, str]]:
    """Graph runs known to Temporal, newest first."""
    from cli.commands import list_runs  # the gRPC client: `list` reads over HTTP first

    rows = await list_runs(settings, "GraphWorkflow", status_filter)
    return [
        {"key": row["id"], **{k: row[k] for k in ("status", "phase", "started")}} for row in rows
    ]


def render_runs(rows: list[dict[str, str]]) -> str:
    """Graph runs as an aligned table."""
    width = max(len(r["key"]) for r in rows) + 1 if rows else 4
    lines = [f"{'RUN':<{width}} {'STATUS':<15} {'CHECKPOINT':<15} STARTED"]
    lines += [
        f"{r['key']:<{width}} {r['status']:<15} {r['phase']:<15} {r['started']}" for r in rows
    ]
    return "\n".join(lines)
