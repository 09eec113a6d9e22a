"""How fast people's input lands: a signed Jira comment webhook, and a command-line update.

A ticket waits for approval on the embedded stack. Each try of the webhook path POSTs a signed
`/budget +1` comment to the webhook app (comment -> signal) and polls the status query until
the new budget shows. Each try of the update path runs `starter.py budget KEY +1` in-process
(its handler: a new client, an update with its validator, the answer), the same code path as
`starter.py approve`, which a waiting ticket accepts only once.
Usage: python -m bench.human_input [--tries 100]
"""

import argparse
import asyncio
import json
import os
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

from bench.support.figures import CannotMeasureError, Report, percentile, run_main
from bench.support.stack import bench_stack, client_for, scripted_model
from config import get_settings
from embedded.stack import child_env
from emulators.jira.webhooks import sign
from harness.jira_payloads import comment_event
from starter import handler, parse_args
from tickets.launch import ticket_input
from workflows.ticket.messages import Status, TicketStatus

KEY = "DEMO-1"
SECRET = "bench-webhook-secret"
DEADLINE_S = 30.0


async def main() -> int:
    """Measure, print the figures, return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m bench.human_input", description=__doc__)
    parser.add_argument("--tries", type=int, default=100, help="tries per path (default 100)")
    args = parser.parse_args()
    report = Report("human input: Jira comment webhook and command-line update round trips")
    model = scripted_model()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-human-") as tmp:
            async with bench_stack(Path(tmp), model, webhook_secret=SECRET) as stack:
                settings = stack.settings
                client = await client_for(settings)
                handle = await client.start_workflow(
                    "TicketWorkflow", ticket_input(KEY, settings), id=f"ticket-{KEY}",
                    task_queue=settings.task_queue,
                )  # fmt: skip

                async def status() -> TicketStatus:
                    return await handle.query("status", result_type=TicketStatus)

                await until(status, lambda s: s.status == Status.AWAITING_APPROVAL, "approval")
                url = f"http://{settings.webhook_host}:{settings.webhook_port}/webhooks/jira"
                async with httpx.AsyncClient(timeout=DEADLINE_S) as http:
                    webhook = [await comment_try(http, url, status) for _ in range(args.tries)]
                # starter.py reads its settings from the environment, as the stack's processes do.
                os.environ.update(child_env(settings))
                get_settings.cache_clear()
                budget = handler("budget")
                update = []
                for _ in range(args.tries):
                    started = time.monotonic()
                    await budget(parse_args(["budget", KEY, "+1"]))
                    update.append(time.monotonic() - started)
                await handle.terminate("bench done")
    finally:
        model.stop()
    p95 = percentile(webhook, 95)
    report.note(f"{args.tries} tries per path; SQLite dev server with the stack's settings")
    report.figure(
        "webhook -> status shows it: p50 / p95",
        f"{ms(percentile(webhook, 50))} / {ms(p95)}",
        "p95 < 150 ms",
        p95 < 0.150,
    )
    report.figure(
        "starter.py update round trip: p50 / p95",
        f"{ms(percentile(update, 50))} / {ms(percentile(update, 95))}",
    )
    return report.done()


def ms(seconds: float) -> str:
    """Seconds as whole milliseconds."""
    return f"{seconds * 1000:.0f} ms"


async def until(
    read: Callable[[], Awaitable[TicketStatus]], done: Callable[[TicketStatus], bool], what: str
) -> TicketStatus:
    """Poll the status until `done(status)`, failing after the deadline."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        current = await read()
        if done(current):
            return current
        await asyncio.sleep(0.002)
    raise CannotMeasureError(f"the ticket never got to wait for {what}")


async def comment_try(
    http: httpx.AsyncClient, url: str, status: Callable[[], Awaitable[TicketStatus]]
) -> float:
    """POST one signed `/budget +1` comment; seconds until the status query shows it."""
    before = (await status()).token_budget or 0
    body = json.dumps(comment_event(KEY, "/budget +1")).encode()
    headers = {"Content-Type": "application/json", "X-Hub-Signature": sign(SECRET, body)}
    started = time.monotonic()
    response = await http.post(url, content=body, headers=headers)
    if response.status_code != 202:
        raise CannotMeasureError(
            f"the webhook app answered {response.status_code}: {response.text}"
        )
    await until(status, lambda s: (s.token_budget or 0) > before, "the comment to land")
    return time.monotonic() - started


if __name__ == "__main__":
    run_main(main())
