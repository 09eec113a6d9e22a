"""The demo after the pull request opens: a reviewer asks for a change through the GitHub
emulator as a person would, a round answers it, the pull request is merged, Jira says Done."""

import asyncio
import time

import httpx
from temporalio.client import Client
from temporalio.service import RPCError

from config import Settings
from embedded.stack import StackError
from workflows.ticket.messages import Status, TicketStatus

REVIEWER = {"Authorization": "Bearer carol-token"}  # Carol, a collaborator in the seed
ASK = "Please give power() a docstring that says negative exponents give floats."
REVIEW = {
    "event": "REQUEST_CHANGES",
    "body": "Nearly there.",
    "comments": [{"path": "calc/operations.py", "line": 1, "body": ASK}],
}
WAIT_S = 1800.0  # a deadline, not a sleep: a small local model takes minutes a round


async def wait_for(client: Client, key: str, done: object, what: str) -> TicketStatus:
    """Poll the status query until `done(status)` holds."""
    handle = client.get_workflow_handle(f"ticket-{key}")
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        try:
            current = await handle.query("status", result_type=TicketStatus)
        except RPCError:
            await asyncio.sleep(1)
            continue
        if current.status in (Status.FAILED, Status.CANCELLED):
            raise StackError(f"{key} ended as {current.status.value}: {current.message}")
        if done(current):  # type: ignore[operator]
            return current
        await asyncio.sleep(0.25)
    raise StackError(f"{key}: {what} did not happen in {WAIT_S:.0f}s")


def rounds_of(current: TicketStatus, kind: str) -> int:
    view = current.pull_request
    return len([r for r in view.rounds if r.kind == kind]) if view else 0


async def review_round(settings: Settings, client: Client, key: str, current: TicketStatus) -> None:
    """Carol requests a change inline; print what the round did and the reply in the thread."""
    view = current.pull_request
    if view is None or view.number is None:
        raise StackError(f"{key} is in review without a pull request")
    api = f"{settings.github_api_url}/repos/demo/calc/pulls/{view.number}"
    print(f"Pull request #{view.number} is waiting for: {view.waiting_for}")
    checks = ", ".join(f"{c.name}: {c.conclusion}" for c in view.checks) or "none yet"
    print(f"Checks on its head: {checks}")
    print("\n=== review (Carol, through the GitHub emulator) ===")
    print(f"Carol requests changes on calc/operations.py: {ASK}")
    async with httpx.AsyncClient(timeout=30) as http:
        (await http.post(f"{api}/reviews", json=REVIEW, headers=REVIEWER)).raise_for_status()
        answered = await wait_for(
            client, key,
            lambda s: rounds_of(s, "review") >= 1 and s.status == Status.AWAITING_REVIEW,
            "the review round",
        )  # fmt: skip
        thread = (await http.get(f"{api}/comments", headers=REVIEWER)).json()
    done = next(r for r in answered.pull_request.rounds if r.kind == "review")  # type: ignore[union-attr]
    print(f"Review round {done.number}: {done.outcome}; files: {', '.join(done.files) or 'none'}")
    for reply in (c for c in thread if c.get("in_reply_to_id")):
        print(f"  {reply['user']['login']} replied in the thread: {reply['body'].splitlines()[0]}")


async def jira_status(settings: Settings, key: str) -> str:
    """The issue's status on the Jira emulator."""
    async with httpx.AsyncClient(base_url=settings.jira_base_url, timeout=30) as http:
        issue = (await http.get(f"/rest/api/3/issue/{key}")).json()
    return str(issue["fields"]["status"]["name"])
