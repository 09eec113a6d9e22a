"""The demo: DEMO-1 through all its phases on the embedded stack, answered by the commands:
questions, plan, implementation, then the pull request's review round and merge."""

import asyncio
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable

import httpx
from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.service import RPCError

from cli.status.render import to_text, usage_table
from cli.status.watch import ENDED, Display
from cli.terminal import console
from config import ROOT, Settings
from embedded.demo_review import jira_status, review_round
from embedded.stack import Stack, StackError, child_env
from temporal.client import connect_temporal
from tickets.launch import describe
from workflows.ticket.messages import Status, TicketResult, TicketStatus

DEMO_KEY = "DEMO-1"
DEMO_ANSWER = (
    "A negative exponent returns a float (2 ** -1 == 0.5); 0 to a negative power raises "
    "ValueError with a clear message. The CLI subcommand is `pow`."
)
WAIT_S = 1800.0  # a deadline, not a sleep: a small local model takes minutes a phase


def starter(settings: Settings, *args: str) -> str:
    """Run `starter.py` exactly as a person would, failing the demo when it fails."""
    done = subprocess.run(
        [sys.executable, "starter.py", *args],
        cwd=ROOT,
        env=child_env(settings),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise StackError(f"starter.py {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout.strip()


async def wait_for_status(
    client: Client,
    wanted: set[Status],
    answered_round: int = 0,
    display: Display | None = None,
    key: str = DEMO_KEY,
) -> TicketStatus:
    """Poll the status query until the ticket reaches one of the wanted states, showing progress.

    Questions of a round already answered (`answered_round`) do not count as waiting for
    answers: a follow-up round may ask the very same questions again.
    """
    handle = client.get_workflow_handle(f"ticket-{key}")
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        try:
            current = await handle.query("status", result_type=TicketStatus)
        except RPCError:  # a worker busy with a long local-model call may answer late
            await asyncio.sleep(1)
            continue
        if display is not None:
            display.show(current)
        stale = current.question_round <= answered_round
        if current.status in wanted and not (current.status == Status.AWAITING_ANSWERS and stale):
            return current
        if current.status in ENDED - wanted:
            raise StackError(f"{key} ended as {current.status.value}: {current.message}")
        await asyncio.sleep(0.25)
    raise StackError(f"{key} did not reach {sorted(wanted)} in {WAIT_S:.0f}s")


async def stop_earlier_run(client: Client) -> None:
    """End a DEMO-1 an interrupted demo left running: the emulators it worked on are reset."""
    handle = client.get_workflow_handle(f"ticket-{DEMO_KEY}")
    described = await describe(handle)
    if described and described.status == WorkflowExecutionStatus.RUNNING:
        await handle.terminate("the demo starts DEMO-1 afresh on reset emulators")
        print(f"(stopped the {DEMO_KEY} an earlier demo left running)")


def pull_request_state(result: TicketResult) -> str:
    """What the pull request claims, which is only what the tests showed."""
    if result.tests_passed is False:
        return "a draft: the tests do not pass yet; its body has their output"
    if result.pr_draft:
        return "a draft: its body says why"
    return "ready for review: the tests pass"


def section(title: str) -> None:
    """A visible heading in the demo's output."""
    print(f"\n=== {title} ===")


async def drive(settings: Settings, client: Client | None = None) -> TicketResult:
    """Start DEMO-1, answer its questions, approve its plan and wait for the result."""
    client = client or await connect_temporal(settings)
    section("start")
    await stop_earlier_run(client)
    print(starter(settings, DEMO_KEY, "--restart"))
    either = {Status.AWAITING_ANSWERS, Status.AWAITING_APPROVAL}
    current = await progress(client, either)
    rounds = 0
    while current.status == Status.AWAITING_ANSWERS:  # a real model may ask follow-up rounds
        rounds += 1
        section("questions" if rounds == 1 else f"follow-up questions (round {rounds})")
        for number, question in enumerate(current.questions, start=1):
            print(f"{number}. {question.text}\n   why: {question.why}")
        section("answer")
        print(f"$ starter.py answer {DEMO_KEY} '{DEMO_ANSWER}'")
        print(starter(settings, "answer", DEMO_KEY, DEMO_ANSWER, "--as", "alice"))
        current = await progress(client, either, current.question_round)
    section(f"plan v{current.plan_version}")
    print(current.plan_markdown)
    section("approve")
    print(f"$ starter.py approve {DEMO_KEY}")
    print(starter(settings, "approve", DEMO_KEY, "--as", "bob"))
    opened = await progress(client, {Status.AWAITING_REVIEW, *ENDED})
    if opened.status == Status.AWAITING_REVIEW:  # the project follows its pull requests
        await review_round(settings, client, DEMO_KEY, opened)
        section("merge")
        print(f"$ starter.py merge {DEMO_KEY}")
        print(starter(settings, "merge", DEMO_KEY))
    handle = client.get_workflow_handle(f"ticket-{DEMO_KEY}", result_type=TicketResult)
    result: TicketResult = await asyncio.wait_for(handle.result(), WAIT_S)
    if result.status == Status.MERGED:
        print(f"Jira says {DEMO_KEY} is {await jira_status(settings, DEMO_KEY)}")
    return result


async def progress(
    client: Client, wanted: set[Status], answered_round: int = 0, key: str = DEMO_KEY
) -> TicketStatus:
    """Wait for the wanted states while showing the ticket's progress as `starter.py watch` does."""
    with Display(console(), key) as display:
        return await wait_for_status(client, wanted, answered_round, display, key)


Drive = Callable[[Settings, Client], Awaitable[TicketResult]]


async def run_demo(settings: Settings, scenario: Drive = drive) -> int:
    """Bring the stack up with fresh emulators, run the demo (`scenario`: DEMO-1 on Jira by
    default), stop the stack."""
    # The emulated CI tests every push, so the pull request shows real checks.
    settings = settings.model_copy(update={"emulator_ci": True})
    stack = Stack(settings, reset_emulators=True)
    try:
        await stack.start()
        print(stack.describe())
        result = await scenario(settings, await connect_temporal(settings))
        section("result")
        print(f"{result.key} {result.status.value}: {result.message}")
        print(f"Pull request: {result.pr_url} ({pull_request_state(result)})")
        async with httpx.AsyncClient() as http:
            served = (await http.get(result.pr_url or "")).status_code
        print(f"(the emulator serves it: HTTP {served})")
        print(f"Branch: {result.branch}")
        section("time, model tokens and cost per phase")
        print(to_text(usage_table(result.usage)).rstrip())
        print(
            f"Web UI: {settings.temporal_ui_url}/namespaces/{settings.temporal_namespace}"
            f"/workflows/ticket-{result.key}"
        )
        print("History is kept in .data/; `make up` shows it in the Web UI.")
        return 0
    finally:
        stack.stop()
