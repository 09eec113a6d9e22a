"""DEMO-1 end to end: dev server, real worker, emulators, webhook app and git, as processes."""

import base64
import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from temporalio.client import WorkflowExecutionStatus
from temporalio.service import RPCError

from embedded.demo import DEMO_KEY, drive, starter, stop_earlier_run
from embedded.stack import Stack
from temporal.client import connect_temporal
from tests.e2e.stacks import clone_branch, poll, pull_requests
from workflows.ticket.messages import Status

pytestmark = pytest.mark.e2e
MARKER = re.compile(r"ticketsmith ref: ([\w./-]+)")


async def test_demo_ticket_reaches_a_pull_request(stack: Stack, tmp_path: Path) -> None:
    settings = stack.settings
    result = await drive(settings)
    assert result.status == Status.COMPLETED
    assert result.pr_url and result.branch

    pulls = await pull_requests(settings)
    assert [p["head"]["ref"] for p in pulls] == [result.branch]
    assert pulls[0]["html_url"] == result.pr_url
    assert pulls[0]["draft"] is True  # the offline model writes no code
    assert "language model is needed" in pulls[0]["body"]
    async with httpx.AsyncClient(base_url=settings.jira_base_url, timeout=10) as http:
        assert (await http.get(result.pr_url)).status_code == 200

        comments = (await http.get(f"/rest/api/3/issue/{DEMO_KEY}/comment")).json()["comments"]
        requests = (await http.get("/_emulator/requests")).json()

    markers = [m for c in comments for m in MARKER.findall(json.dumps(c["body"]))]
    assert [m.rsplit("/", 1)[1] for m in markers] == [
        "questions-1",
        "plan-v1",
        "approved-v1",
        "pull-request",
    ]
    assert len(set(markers)) == len(markers)
    posts = [r for r in requests if r["method"] == "POST" and r["path"].endswith("/comment")]
    assert len(posts) == 4

    clone = clone_branch(settings, result.branch, tmp_path / "clone")
    plan = (clone / ".ticketsmith" / f"{DEMO_KEY}-plan.md").read_text()
    assert plan.startswith("# Plan v1 for DEMO-1")

    client = await connect_temporal(settings)
    query = f"TicketKey = '{DEMO_KEY}' AND `Status` = 'completed'"
    deadline = time.monotonic() + 10
    found: list[str] = []
    while not found and time.monotonic() < deadline:  # visibility is eventually consistent
        found = [wf.id async for wf in client.list_workflows(query)]
    assert found == [f"ticket-{DEMO_KEY}"]


async def test_the_demo_stops_a_demo_ticket_left_running(stack: Stack) -> None:
    settings = stack.settings
    assert "started" in starter(settings, DEMO_KEY, "--restart").lower()  # left waiting
    client = await connect_temporal(settings)
    handle = client.get_workflow_handle(f"ticket-{DEMO_KEY}")
    left = await handle.describe()
    assert left.status == WorkflowExecutionStatus.RUNNING
    await stop_earlier_run(client)
    stopped = await client.get_workflow_handle(f"ticket-{DEMO_KEY}", run_id=left.run_id).describe()
    assert stopped.status == WorkflowExecutionStatus.TERMINATED


async def test_a_default_stack_signs_its_own_deliveries_and_refuses_others(stack: Stack) -> None:
    settings = stack.settings
    secret = settings.data_dir / "webhook-secret"  # no secret was set: the stack made one
    assert secret.stat().st_mode & 0o777 == 0o600
    assert settings.webhook_secret is not None
    assert secret.read_text().strip() == settings.webhook_secret.get_secret_value()
    hooks = f"http://{settings.webhook_host}:{settings.webhook_port}/webhooks"
    label = {"update": {"labels": [{"add": settings.jira_start_label}]}}
    jira = json.dumps({"webhookEvent": "jira:issue_updated", "issue": {"key": "DEMO-2"}}).encode()
    github = json.dumps({"action": "created", "sender": {"login": "mallory"}}).encode()
    forged = "sha256=" + "0" * 64
    async with httpx.AsyncClient(timeout=30) as http:
        refused = [
            await http.post(f"{hooks}/jira", content=jira, headers=signature)
            for signature in ({}, {"X-Hub-Signature": forged})
        ] + [
            await http.post(
                f"{hooks}/github",
                content=github,
                headers={"X-GitHub-Event": "issue_comment", **signature},
            )
            for signature in ({}, {"X-Hub-Signature-256": forged})
        ]
        # The emulator's own delivery of a label, signed with the stack's secret, starts DEMO-2.
        alice = {"Authorization": "Basic " + base64.b64encode(b"alice@example.com:t").decode()}
        labelled = await http.put(
            f"{settings.jira_base_url}/rest/api/3/issue/DEMO-2", json=label, headers=alice
        )
        handle = (await connect_temporal(settings)).get_workflow_handle("ticket-DEMO-2")

        async def described() -> Any:
            try:
                return await handle.describe()
            except RPCError:  # not started yet: the delivery is on its way
                return None

        await poll(described, "the ticket the emulator's signed label delivery starts", 120)
        await handle.terminate("the signed delivery started it")

        async def logged() -> list[Any] | None:
            # The emulator logs an attempt once the answer is back: after the ticket it
            # started may be visible.
            paths = ("/_emulator/webhooks", "/_emulator/github/webhooks")
            logs = [(await http.get(f"{settings.jira_base_url}{path}")).json() for path in paths]
            answers = [a.get("status_code") for d in logs[0]["deliveries"] for a in d["attempts"]]
            return logs if 202 in answers else None

        jira_log, github_log = await poll(logged, "the accepted delivery in the emulator's log", 30)
    assert [r.status_code for r in refused] == [401, 401, 401, 401]
    assert all("signature missing or wrong" in r.json()["error"] for r in refused)
    assert labelled.status_code == 204
    answered = [
        attempt["status_code"]
        for log in (jira_log, github_log)
        for delivery in log["deliveries"]
        for attempt in delivery["attempts"]
        if "status_code" in attempt
    ]
    assert 202 in answered and 401 not in answered
