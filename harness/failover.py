"""What the failover test and bench share: which worker runs a ticket's implementation, each
ticket's side effects read from the emulators and git, and the model calls asked again."""

import json
import re
import subprocess
from collections import Counter
from dataclasses import dataclass

import httpx
from temporalio.client import Client

from config import Settings
from harness.model_server import Call, FakeModelServer
from workflows.ticket.messages import TicketStatus


@dataclass
class TicketEffects:
    """One ticket's side effects: its Jira comments, pull requests, commits on its branch and
    Discord messages."""

    comments: list[str]
    pull_requests: int
    commits: list[str]
    discord: list[str]

    def duplicated(self) -> list[str]:
        """Comments, commits or messages that happened more than once (each should be once)."""
        twice = Counter(self.comments) + Counter(f"commit: {c}" for c in self.commits)
        twice += Counter(f"discord: {m}" for m in self.discord)
        return [what[:120] for what, n in twice.items() if n > 1]


async def branch_of(client: Client, key: str) -> str:
    """The ticket branch, from the status query."""
    handle = client.get_workflow_handle(f"ticket-{key}")
    status = await handle.query("status", result_type=TicketStatus)
    return str(status.branch)


async def ticket_effects(settings: Settings, key: str, branch: str) -> TicketEffects:
    """The ticket's comments, pull requests and Discord messages (emulator state) and its
    branch's commits (git)."""
    async with httpx.AsyncClient(base_url=settings.jira_base_url, timeout=30) as http:
        response = await http.get("/_emulator/state")
    response.raise_for_status()
    state = response.json()
    comments = [json.dumps(c["body"], sort_keys=True) for c in state["issues"][key]["comments"]]
    pulls = sum(1 for p in state["pulls"] if p["head"] == branch)
    named = re.compile(rf"\b{re.escape(key)}(?!\d)")  # DEMO-1, not DEMO-10
    messages = [json.dumps([m["content"], m["embeds"]]) for m in state["discord"]["messages"]]
    discord = [m for m in messages if named.search(m)]
    bare = settings.emulator_state_dir / "git" / "demo" / "calc.git"
    log = subprocess.run(
        ["git", "-C", str(bare), "log", "--format=%s", f"main..{branch}"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return TicketEffects(comments, pulls, log.stdout.splitlines(), discord)


async def implementation_worker(client: Client, key: str) -> str | None:
    """The identity (`<pid>@<host>`) of the worker running the ticket's implementation now."""
    try:
        described = await client.get_workflow_handle(f"ticket-{key}-implementation").describe()
    except Exception:  # the child workflow does not exist yet
        return None
    for activity in described.raw_description.pending_activities:
        if activity.activity_type.name == "implement_changes" and activity.last_worker_identity:
            return str(activity.last_worker_identity)
    return None


def of_ticket(call: Call, key: str) -> bool:
    """Whether a model call is for this ticket (every prompt names it: `Ticket KEY: ...`)."""
    return any(f"Ticket {key}:" in str(m.get("content")) for m in call.body.get("messages", []))


def repeated_calls(model: FakeModelServer, key: str) -> dict[str, int]:
    """The ticket's model calls asked again with the same prompt, by task (and file)."""
    seen: Counter[str] = Counter()
    step: dict[str, str] = {}
    for call in model.calls:
        if of_ticket(call, key):
            prompt = json.dumps(call.body.get("messages"), sort_keys=True)
            seen[prompt] += 1
            path = call.inputs.get("path")
            step[prompt] = f"{call.task} {path}" if path else call.task
    again: Counter[str] = Counter()
    for prompt, n in seen.items():
        if n > 1:
            again[step[prompt]] += n - 1
    return dict(again)
