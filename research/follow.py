"""Following a research run: progress lines per agent step, then the report."""

import asyncio
import json
from collections.abc import Callable
from typing import Any

from temporalio.client import WorkflowHandle

from workflows.graph.messages import GraphResult, GraphStatus
from workflows.graph.workflow import GraphWorkflow

POLL_SECONDS = 0.2


def progress_lines(status: GraphStatus, agents: dict[str, str], seen: dict[str, str]) -> list[str]:
    """Lines for the agent steps whose state changed since `seen` (which is updated)."""
    lines = []
    for record in status.steps:
        if record.step not in agents or seen.get(record.step) == record.status:
            continue
        seen[record.step] = record.status
        name = f"{record.step} ({agents[record.step]})"
        if record.status == "running":
            lines.append(f"  ... {name} started")
        elif record.ended_at is not None:
            took = (record.ended_at - record.started_at).total_seconds()
            mark = "ok" if record.status == "completed" else record.status
            lines.append(
                f"  {mark:>3} {name} {took:.2f} s{f': {record.message}' if record.message else ''}"
            )
    return lines


async def follow(
    handle: WorkflowHandle[GraphWorkflow, GraphResult],
    agents: dict[str, str],
    say: Callable[[str], None],
) -> GraphResult:
    """Print each agent step as it starts and ends until the run is over; its result."""
    seen: dict[str, str] = {}
    result = asyncio.ensure_future(handle.result())
    while not result.done():
        status = await handle.query(GraphWorkflow.status)
        for line in progress_lines(status, agents, seen):
            say(line)
        await asyncio.wait({result}, timeout=POLL_SECONDS)
    for line in progress_lines(await handle.query(GraphWorkflow.status), agents, seen):
        say(line)
    return result.result()


def timings(result: GraphResult, agents: dict[str, str]) -> list[dict[str, Any]]:
    """Each agent step's attempt, tool calls and handoff, from the result's state."""
    rows = []
    for step, agent in agents.items():
        out = result.state.get(step)
        if isinstance(out, dict) and "finished_at" in out:
            keys = (
                "started_at",
                "finished_at",
                "handoff_seconds",
                "after",
                "attempt",
                "tool_calls",
            )
            rows.append({"step": step, "agent": agent, **{k: out.get(k) for k in keys}})
    return rows


def report_json(result: GraphResult, workflow_id: str, agents: dict[str, str]) -> str:
    """The structured form: the report (sections, summary, sources) and the steps' timings."""
    report = dict(result.state.get("synthesis", {}).get("result") or {})
    report.pop("markdown", None)
    out = {"workflow_id": workflow_id, "status": result.status.value, "report": report,
           "steps": timings(result, agents), "tokens": result.tokens}  # fmt: skip
    return json.dumps(out, indent=1, default=str)
