"""Helpers of the review-phase end-to-end tests: their stack, the ticket's status, the
emulator's GitHub side as people see it, and git."""

import json
import os
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from pydantic import SecretStr
from temporalio.client import Client

from embedded.stack import Stack
from harness.model_server import FakeModelServer, task_of
from harness.stacks import stack_settings
from tests.e2e.stacks import running
from workflows.ticket.messages import Status, TicketStatus

KEY = "DEMO-1"
REPO = "/api/v3/repos/demo/calc"


@asynccontextmanager
async def following_stack(
    data: Path, model: FakeModelServer, secret: str, **overrides: Any
) -> AsyncIterator[Stack]:
    """A stack whose tickets follow their PR, with emulated CI, GitHub webhooks signed with
    `secret`, and the worker's model the fake server."""
    names = ("OPENAI_BASE_URL", "TICKETSMITH_OPENAI_MODEL", "TICKETSMITH_SANDBOX")
    saved = {k: os.environ.get(k) for k in names}
    os.environ.update(OPENAI_BASE_URL=model.base_url, TICKETSMITH_OPENAI_MODEL="fake")
    # The worker's and the emulated CI's test runs build the repository's environment; where
    # the machine's pip configuration lives outside what bubblewrap shows, only `none` builds it.
    os.environ.setdefault("TICKETSMITH_SANDBOX", "none")
    settings = stack_settings(
        data,
        follow_pull_request=True,
        webhook_secret=SecretStr(secret),
        emulator_ci=True,
        model_provider="openai",
        openai_base_url=model.base_url,
        **overrides,
    )
    try:
        async with running(settings) as started:
            yield started
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def tasks(model: FakeModelServer, marker: str) -> int:
    """Worker calls whose prompt carries `marker` (which kind of round asked)."""
    count = 0
    for call in model.calls:
        task, _ = task_of(call.body)
        human = next(
            (m["content"] for m in reversed(call.body["messages"]) if m.get("role") == "user"), ""
        )
        count += task == "implement_file" and marker in str(human)
    return count


def as_person(login: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {login}-token"}


async def current(client: Client) -> TicketStatus:
    return await client.get_workflow_handle(f"ticket-{KEY}").query(
        "status", result_type=TicketStatus
    )


async def waiting_after(client: Client, kind: str, count: int) -> TicketStatus | None:
    """The status once `count` rounds of `kind` are done and the ticket waits again."""
    try:
        status = await current(client)
    except Exception:
        return None
    assert status.status not in (Status.FAILED, Status.CANCELLED), status.message
    view = status.pull_request
    done = view is not None and len([r for r in view.rounds if r.kind == kind]) >= count
    return status if done and status.status == Status.AWAITING_REVIEW else None


async def check_on_head(http: httpx.AsyncClient, sha: str) -> str | None:
    runs = (await http.get(f"{REPO}/commits/{sha}/check-runs", headers=as_person("carol"))).json()
    done = [r for r in runs["check_runs"] if r["status"] == "completed"]
    return done[0]["conclusion"] if done else None


def git(*args: str, cwd: Path | None = None) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


async def comments_with(http: httpx.AsyncClient, number: int, text: str) -> list[str] | None:
    found = (await http.get(f"{REPO}/issues/{number}/comments", headers=as_person("carol"))).json()
    bodies = [c["body"] for c in found if text in c["body"]]
    return bodies or None


async def second_answer(http: httpx.AsyncClient, delivery_id: str) -> dict[str, Any] | None:
    hooks = (await http.get("/_emulator/github/webhooks")).json()["deliveries"]
    delivery = next(d for d in hooks if d["id"] == delivery_id)
    attempts = delivery["attempts"]
    if delivery["state"] == "pending" or len(attempts) < 2:
        return None
    answer: dict[str, Any] = json.loads(attempts[1]["response"])
    return answer
