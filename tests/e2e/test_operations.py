"""Running it for real: DEMO-1 once with encryption, metrics and distinctive secrets, then checks.

The stack runs with an encryption key ring, the codec server, the worker's Prometheus
endpoint and one injected Jira error; every test below reads what that one run left.
"""

import asyncio
import base64
import json
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from pydantic import SecretStr
from temporalio.api.enums.v1 import TaskQueueType
from temporalio.api.taskqueue.v1 import TaskQueue
from temporalio.api.workflowservice.v1 import DescribeTaskQueueRequest
from temporalio.client import Client

from config import Settings
from embedded.demo import DEMO_ANSWER, DEMO_KEY, drive
from embedded.stack import SEARCH_ATTRIBUTES, Stack
from encryption.codec import new_key
from harness.stacks import stack_settings
from temporal.client import connect_temporal
from tests.e2e.webui import render_workflow_page
from workflows.ticket.messages import Phase, Status, TicketResult

pytestmark = pytest.mark.e2e
T = TypeVar("T")

JIRA_TOKEN = "jira-" + base64.b32encode(b"ops-e2e-jira-token").decode().lower()
GITHUB_TOKEN = "ghp_" + base64.b32encode(b"ops-e2e-github-tok").decode().lower()
TICKET_TEXT = ["power operation", "keep asking it for powers", DEMO_ANSWER[:40]]
WORKFLOW_ID = f"ticket-{DEMO_KEY}"
ENCRYPTED = base64.b64encode(b"binary/encrypted").decode()


@dataclass
class Run:
    """The stack and the finished DEMO-1 run."""

    stack: Stack
    result: TicketResult
    run_id: str

    @property
    def settings(self) -> Settings:
        """The settings every process of the stack got."""
        return self.stack.settings


async def poll(check: Callable[[], Awaitable[T | None]], timeout_s: float, what: str) -> T:
    """Poll `check` until it returns something truthy; fail with `what` after the deadline."""
    deadline = time.monotonic() + timeout_s
    while True:
        found = await check()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"gave up after {timeout_s:.0f} s waiting for {what}")
        await asyncio.sleep(0.2)


@pytest.fixture(scope="module")
async def run(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Run]:
    """DEMO-1 through all phases, encrypted, with one Jira 503 on the first comment."""
    settings = stack_settings(
        tmp_path_factory.mktemp("ops"),
        task_queue="ops",
        agent_task_queue="ops-agents",
        ticket_gauge_seconds=0.5,
        model_provider="offline",
        encryption_keys=SecretStr(f"{new_key('current')},{new_key('retired')}"),
        jira_token=SecretStr(JIRA_TOKEN),
        github_token=SecretStr(GITHUB_TOKEN),
    )
    stack = Stack(settings, reset_emulators=True)
    try:
        await stack.start()
        async with httpx.AsyncClient(base_url=settings.jira_base_url, timeout=10) as http:
            comments = f"/rest/api/3/issue/{DEMO_KEY}/comment"
            fault = {"path": comments, "method": "POST", "status_code": 503}
            (await http.post("/_emulator/faults", json=fault)).raise_for_status()
        result = await drive(settings)
        client = await connect_temporal(settings)
        run_id = (await client.get_workflow_handle(WORKFLOW_ID).describe()).run_id
        yield Run(stack, result, run_id)
    finally:
        stack.stop()


def payloads_in(node: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every payload (a dict with `metadata` and `data`) in a proto-JSON history, with its path."""
    if isinstance(node, dict):
        if "metadata" in node and "data" in node and isinstance(node["metadata"], dict):
            return [(path, node)]
        return [p for key, value in node.items() for p in payloads_in(value, f"{path}/{key}")]
    if isinstance(node, list):
        return [p for value in node for p in payloads_in(value, path)]
    return []


async def test_ticket_completes_with_agents_on_their_own_queue(run: Run) -> None:
    assert run.result.status == Status.COMPLETED
    client = await connect_temporal(run.settings)
    pollers = await client.workflow_service.describe_task_queue(
        DescribeTaskQueueRequest(
            namespace=client.namespace,
            task_queue=TaskQueue(name=run.settings.agent_task_queue),
            task_queue_type=TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
        )
    )
    assert pollers.pollers, "no worker polls the agent task queue"


async def test_history_holds_no_ticket_text_and_the_codec_reads_it(run: Run) -> None:
    settings = run.settings
    raw = await Client.connect(settings.temporal_address)  # no codec: what the database holds
    texts = [
        (await raw.get_workflow_handle(wf.id, run_id=wf.run_id).fetch_history()).to_json()
        async for wf in raw.list_workflows()
    ]
    assert len(texts) >= 2  # the ticket and its implementation child
    for fragment in TICKET_TEXT:
        assert all(fragment not in text for text in texts)
    encrypted, readable = [], []
    for path, payload in payloads_in([json.loads(text) for text in texts]):
        is_encrypted = payload["metadata"].get("encoding") == ENCRYPTED
        (encrypted if is_encrypted else readable).append((path, payload))
    assert len(encrypted) > 10
    # Only search attributes, the phase header and patch markers stay readable, by design.
    places = {path.rsplit("/", 2)[-2] for path, _ in readable}
    assert places <= {"indexedFields", "fields", "patch-data"}
    ours = [p for path, p in readable if path.rsplit("/", 1)[-1] in SEARCH_ATTRIBUTES]
    values = {json.loads(base64.b64decode(p["data"])) for p in ours}
    phases, statuses = {p.value for p in Phase}, {s.value for s in Status}
    assert values <= {DEMO_KEY, "DEMO"} | phases | statuses

    ui_origin = settings.temporal_ui_url
    codec = f"http://{settings.codec_host}:{settings.codec_port}"
    async with httpx.AsyncClient(base_url=codec, timeout=10) as http:
        preflight = await http.options(
            "/decode",
            headers={
                "Origin": ui_origin,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type,x-namespace",
            },
        )
        assert preflight.headers["access-control-allow-origin"] == ui_origin
        decoded = await http.post(
            "/decode",
            json={"payloads": [payload for _, payload in encrypted]},
            headers={"Origin": ui_origin, "X-Namespace": settings.temporal_namespace},
        )
    assert decoded.status_code == 200, decoded.text
    clear = b"".join(base64.b64decode(p.get("data", "")) for p in decoded.json()["payloads"])
    for fragment in TICKET_TEXT:
        assert fragment.encode() in clear


def scrape_value(metrics: str, name: str, **labels: str) -> float | None:
    """The value of the first sample of `name` carrying all `labels`, if any."""
    for line in metrics.splitlines():
        if not line.startswith(name + "{"):
            continue
        if all(f'{key}="{value}"' in line for key, value in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return None


async def test_metrics_endpoint_after_a_ticket(run: Run) -> None:
    url = f"http://127.0.0.1:{run.settings.metrics_port}/metrics"

    async def done_ticket_counted() -> str | None:
        async with httpx.AsyncClient(timeout=5) as http:
            body = (await http.get(url)).text
        done = scrape_value(body, "ticketsmith_tickets", phase="done", status="completed")
        return body if done == 1 else None

    body = await poll(done_ticket_counted, 20, "ticketsmith_tickets{phase=done,status=completed}")
    assert "temporal_activity_execution_latency" in body
    assert "temporal_workflow_completed" in body
    tokens = scrape_value(
        body,
        "ticketsmith_model_tokens_total",
        activity_type="generate_plan",
        task_queue="ops-agents",
    )
    assert tokens and tokens > 0
    failures = scrape_value(
        body, "ticketsmith_activity_failures_total", activity_type="post_jira_comment"
    )
    assert failures == 1
    assert re.search(r'ticketsmith_activity_failures_total\{[^}]*error_type="Jira\w+"', body)
    took = scrape_value(
        body, "ticketsmith_activity_duration_seconds_count", activity_type="prepare_repository"
    )
    assert took and took >= 1
    assert scrape_value(body, "ticketsmith_tickets", phase="refinement", status="running") == 0


async def test_metrics_count_time_waiting_on_people(run: Run) -> None:
    async with httpx.AsyncClient(timeout=5) as http:
        body = (await http.get(f"http://127.0.0.1:{run.settings.metrics_port}/metrics")).text
    for waiting_for in (Status.AWAITING_ANSWERS, Status.AWAITING_APPROVAL):
        count = scrape_value(body, "ticketsmith_human_wait_seconds_count", waiting_for=waiting_for)
        assert count == 1


async def test_logs_carry_ticket_context_and_no_secret(run: Run) -> None:
    logs = sorted((run.settings.data_dir / "logs").glob("*.log"))
    assert {p.name for p in logs} >= {"worker.log", "codec.log", "temporal.log", "webhooks.log"}
    for path in logs:
        content = path.read_text(errors="replace")
        for secret in (JIRA_TOKEN, GITHUB_TOKEN, run.settings.encryption_keys.get_secret_value()):
            assert secret not in content, f"a secret is in {path.name}"
    lines = [json.loads(line) for line in worker_json_lines(run.settings.data_dir / "logs")]
    # implement_changes runs in a child workflow (ticket-DEMO-1-...): same key, same phase.
    for activity, phase in (("generate_plan", "planning"), ("implement_changes", "implementation")):
        found = [line for line in lines if line.get("activity") == activity]
        assert found, f"no log line from the {activity} activity"
        assert found[0]["workflow_id"].startswith(WORKFLOW_ID)
        assert (found[0]["ticket_key"], found[0]["phase"]) == (DEMO_KEY, phase)
    waits = [line for line in lines if line["logger"] == "temporalio.workflow"]
    assert waits and all(line["ticket_key"] == DEMO_KEY and line["phase"] for line in waits)


def worker_json_lines(log_dir: Path) -> list[str]:
    """The worker's JSON log lines (it writes JSON: its output is a file, not a terminal)."""
    text = (log_dir / "worker.log").read_text(errors="replace")
    return [line for line in text.splitlines() if line.startswith("{")]


@pytest.mark.webui
async def test_web_ui_shows_the_finished_ticket(run: Run, tmp_path: Path) -> None:
    workflows = f"{run.settings.temporal_ui_url}/namespaces/default/workflows"
    # One page holds the whole history (the first steps are over a hundred events back).
    page = f"{workflows}/{WORKFLOW_ID}/{run.run_id}/history?per-page=500"
    dom = render_workflow_page(page, tmp_path)
    assert "Workflow Execution Started" in dom
    assert "Completed" in dom
    # Steps, wait reasons and the result are encrypted: the page shows them through the codec.
    for text in (
        "Analyse the codebase",
        "Write plan v1",
        "Implement plan v1",
        "awaiting_answers: answers to the questions",
        "awaiting_approval: approval of plan v1",
        "Pull request opened",
    ):
        assert text in dom, f"{text!r} is not on the Web UI page"
