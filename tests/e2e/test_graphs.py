"""Graph runs through the command line on the embedded stack (offline model): the custom
triage example end to end, its history step by step, list, cancel, and the MVP offline."""

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from temporalio.api.enums.v1 import EventType

from config import ROOT
from embedded.stack import Stack, child_env
from temporal.client import connect_temporal
from tests.e2e.stacks import admin
from tests.e2e.webui import render_workflow_page
from workflows.graph.messages import GraphStatus, GraphStatusValue

pytestmark = pytest.mark.e2e


def starter(stack: Stack, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run `starter.py` as a person would."""
    return subprocess.run(
        [sys.executable, "starter.py", *args],
        cwd=ROOT,
        env=child_env(stack.settings),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


async def wait_for(stack: Stack, run_id: str, wanted: GraphStatusValue) -> GraphStatus:
    """Poll the graph's status query until it reaches `wanted`."""
    client = await connect_temporal(stack.settings)
    handle = client.get_workflow_handle(run_id)
    deadline = time.monotonic() + 120
    current = None
    while time.monotonic() < deadline:
        current = await handle.query("status", result_type=GraphStatus)
        if current.status == wanted:
            return current
        await asyncio.sleep(0.2)
    raise AssertionError(f"{run_id} never reached {wanted}: {current}")


def run_id_of(output: str) -> str:
    return output.split()[1]


def start_triage(stack: Stack, ticket: str) -> str:
    """Start the triage example on a ticket; its run id."""
    started = starter(
        stack, "graph", "triage", "--input", f"ticket={ticket}", "--input", "project=DEMO"
    )
    assert started.returncode == 0, started.stderr
    assert "/history" in started.stdout
    return run_id_of(started.stdout)


async def test_triage_graph_runs_end_to_end(stack: Stack) -> None:
    run_id = start_triage(stack, "DEMO-1")
    assert run_id.startswith("graph-triage-")

    waiting = await wait_for(stack, run_id, GraphStatusValue.AWAITING_INPUT)
    assert waiting.checkpoints == ["triggered", "announced"]
    assert waiting.state["issue"]["key"] == "DEMO-1"
    status = starter(stack, "status", run_id)
    assert "triage: awaiting_input" in status.stdout and "input 'approval'" in status.stdout

    refused = starter(stack, "input", run_id, "budget", "tokens=5")
    assert refused.returncode == 1 and "waiting for 'approval'" in refused.stderr
    sent = starter(stack, "input", run_id, "approval", "approved=true")
    assert sent.returncode == 0, sent.stderr
    done = await wait_for(stack, run_id, GraphStatusValue.COMPLETED)
    assert done.checkpoints == ["triggered", "announced", "decided"]
    assert done.state["approval"] == {"approved": True}

    async with admin(stack.settings) as http:
        state = (await http.get("/_emulator/state")).json()
    issue = state["issues"]["DEMO-1"]
    assert issue["status"] == "In Progress"
    comments = json.dumps(issue["comments"])
    assert "Triage started" in comments and "Approved: work has started." in comments
    discord = json.dumps(state["discord"]["messages"])
    assert "waiting for a go-ahead" in discord and "Triage finished." in discord

    listed = starter(stack, "list")
    assert any(
        line.startswith(run_id) and "completed" in line for line in listed.stdout.splitlines()
    )

    # The history reads step by step: every activity's summary names its step.
    client = await connect_temporal(stack.settings)
    history = await client.get_workflow_handle(run_id).fetch_history()
    summaries = []
    for event in history.events:
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            payload = event.user_metadata.summary
            summaries.append(json.loads(payload.data))
    assert summaries == [
        "step trigger (agent jira_fetch_ticket)",
        "step acknowledge (agent jira_comment)",
        "step notify (agent discord_notify)",
        "step start_work (agent jira_transition)",
        "step approved_comment (agent jira_comment)",
        "step complete (agent discord_notify)",
    ]


async def test_graph_run_cancel_and_bad_input(stack: Stack) -> None:
    missing = starter(stack, "graph", "triage", "--input", "ticket=DEMO-2")
    assert missing.returncode == 1
    assert "needs project: add --input project=..." in missing.stderr
    bad = starter(stack, "graph", str(ROOT / "README.md"))
    assert bad.returncode == 1 and "is not a valid graph definition" in bad.stderr

    run_id = start_triage(stack, "DEMO-2")
    await wait_for(stack, run_id, GraphStatusValue.AWAITING_INPUT)
    cancelled = starter(stack, "cancel", run_id)
    assert cancelled.returncode == 0, cancelled.stderr
    assert cancelled.stdout.strip() == f"{run_id} cancelled"
    listed = starter(stack, "list", "--status", "cancelled")
    assert any(line.startswith(run_id) for line in listed.stdout.splitlines())


async def test_mvp_with_the_offline_model_says_a_model_is_needed(
    stack: Stack, tmp_path: Path
) -> None:
    done = starter(stack, "mvp", "Build an MVP for a todo-list app", "--output", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "A language model is needed to write the code" in done.stdout
    assert "Tests: none ran" in done.stdout and "Files: none written" in done.stdout


@pytest.mark.webui
async def test_web_ui_reads_the_triage_run_step_by_step(stack: Stack, tmp_path: Path) -> None:
    run_id = start_triage(stack, "DEMO-1")
    await wait_for(stack, run_id, GraphStatusValue.AWAITING_INPUT)
    assert starter(stack, "input", run_id, "approval", "approved=false").returncode == 0
    await wait_for(stack, run_id, GraphStatusValue.COMPLETED)
    client = await connect_temporal(stack.settings)
    described = await client.get_workflow_handle(run_id).describe()
    page = (
        f"{stack.settings.temporal_ui_url}/namespaces/default/workflows/{run_id}/"
        f"{described.run_id}/history?per-page=500"
    )
    dom = render_workflow_page(page, tmp_path, "graph-triage.png")
    for text in (
        "step trigger (agent jira_fetch_ticket)",
        "step acknowledge (agent jira_comment)",
        "step notify (agent discord_notify)",
        "deadline for input &#39;approval&#39;",
        "step declined_comment (agent jira_comment)",
        "step complete (agent discord_notify)",
    ):
        assert text in dom or text.replace("&#39;", "'") in dom, f"{text!r} is not on the page"
