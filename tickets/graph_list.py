"""Graph runs as the ticket commands see them: which ids are runs, and the list of runs.

Apart from tickets/graph_runs.py so that `status` and `list` of tickets never load the graph
definitions' models.
"""

from config import Settings
from tickets.commands import connect

PREFIX = "graph-"


def is_graph_id(text: str) -> bool:
    """Whether a command-line argument names a graph run rather than a ticket."""
    return text.startswith(PREFIX)


async def list_graph_runs(settings: Settings, status_filter: str | None) -> list[dict[str, str]]:
    """Graph runs known to Temporal, newest first."""
    client = await connect(settings)
    query = "WorkflowType = 'GraphWorkflow'"
    if status_filter:
        query += f" AND `Status` = '{status_filter}'"
    rows = []
    async for wf in client.list_workflows(query, limit=200):
        attrs = {key.name: value for key, value in wf.typed_search_attributes}
        rows.append(
            {
                "key": wf.id,
                "status": str(attrs.get("Status", "")),
                "phase": str(attrs.get("Phase", "")),
                "started": wf.start_time.strftime("%Y-%m-%d %H:%M"),
            }
        )
    return rows


def render_runs(rows: list[dict[str, str]]) -> str:
    """Graph runs as an aligned table."""
    width = max(len(r["key"]) for r in rows) + 1 if rows else 4
    lines = [f"{'RUN':<{width}} {'STATUS':<15} {'CHECKPOINT':<15} STARTED"]
    lines += [
        f"{r['key']:<{width}} {r['status']:<15} {r['phase']:<15} {r['started']}" for r in rows
    ]
    return "\n".join(lines)
