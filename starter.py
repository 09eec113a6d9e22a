"""The command line: start a ticket, answer, approve, reject, and see its status."""

import argparse
import asyncio
import getpass
import os
import re
import sys
from typing import Any

import httpx
from temporalio.client import (
    Client,
    WorkflowUpdateFailedError,
)
from temporalio.exceptions import ApplicationError
from temporalio.service import RPCError, RPCStatusCode

from config import (
    Settings,
    connect_temporal,
    get_settings,
)
from integrations.jira import JiraClient
from launch import LaunchError, start_ticket, ticket_input, web_ui_link, workflow_id
from workflows.messages import (
    AnswerInput,
    ApprovalInput,
    HumanInputAccepted,
    RejectionInput,
    TicketStatus,
)

KEY_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]+-[1-9][0-9]*$")
COMMANDS = ("start", "answer", "approve", "reject", "status")


class CommandError(Exception):
    """A problem the user can fix; printed as one line."""


def check_key(key: str) -> str:
    """A Jira issue key like PROJ-123, or a clear error."""
    if not KEY_PATTERN.match(key):
        raise CommandError(f"'{key}' is not a Jira issue key; expected something like PROJ-123")
    return key


async def connect(settings: Settings) -> Client:
    """The Temporal client, or a clear error when the server is not there."""
    try:
        return await connect_temporal(settings)
    except RuntimeError as err:
        raise CommandError(
            f"cannot reach Temporal at {settings.temporal_address} ({err}); "
            "is the stack running? (make up)"
        ) from err


async def ensure_ticket_exists(settings: Settings, key: str) -> str:
    """Read the ticket from Jira, turning 'not found' into a clear error; returns its summary."""
    jira = JiraClient(
        settings.jira_base_url,
        settings.jira_email,
        settings.jira_token.get_secret_value(),
        api_version=settings.jira_api_version,
    )
    try:
        return (await jira.get_issue(key)).summary
    except ApplicationError as err:
        if err.type == "JiraNotFound":
            raise CommandError(
                f"ticket {key} does not exist in Jira at {settings.jira_base_url}"
            ) from None
        raise CommandError(f"Jira refused to read {key}: {err.message}") from err
    except httpx.HTTPError as err:
        raise CommandError(f"cannot reach Jira at {settings.jira_base_url}: {err}") from err
    finally:
        await jira.aclose()


async def start(settings: Settings, key: str, restart: bool) -> str:
    """Start the ticket workflow, or attach to the one already running."""
    try:
        inp = ticket_input(key, settings)
        summary = await ensure_ticket_exists(settings, key)
        client = await connect(settings)
        outcome = await start_ticket(client, settings, inp, summary, restart=restart)
    except LaunchError as err:
        raise CommandError(str(err)) from err
    link = web_ui_link(settings, outcome.workflow_id, outcome.run_id)
    if outcome.attached:
        return f"{key} is already being worked on; attached to {outcome.workflow_id}\n{link}"
    return f"started {outcome.workflow_id} for {key}: {summary}\n{link}"


async def send_update(settings: Settings, key: str, update: str, payload: Any) -> str:
    """Send human input as an update; a refusal comes back as one clear line."""
    client = await connect(settings)
    handle = client.get_workflow_handle(workflow_id(key))
    try:
        accepted = await handle.execute_update(update, payload, result_type=HumanInputAccepted)
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            raise CommandError(
                f"{key} is not being worked on; start it with: starter.py {key}"
            ) from err
        raise CommandError(f"Temporal refused the {update} for {key}: {err.message}") from err
    except WorkflowUpdateFailedError as err:
        # The validator's refusal says what the ticket is waiting for instead.
        raise CommandError(getattr(err.cause, "message", None) or str(err)) from None
    return accepted.message


async def status(settings: Settings, key: str) -> str:
    """A readable account of where the ticket is."""
    client = await connect(settings)
    handle = client.get_workflow_handle(workflow_id(key))
    try:
        current = await handle.query("status", result_type=TicketStatus)
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            raise CommandError(
                f"{key} has never been started; start it with: starter.py {key}"
            ) from None
        raise CommandError(f"cannot read the status of {key}: {err.message}") from err
    return render_status(current, web_ui_link(settings, workflow_id(key)))


def render_status(current: TicketStatus, link: str) -> str:
    """The status query's answer as text."""
    lines = [
        f"{current.key}: {current.phase.value} / {current.status.value}",
        f"  {current.message}",
    ]
    for number, question in enumerate(current.questions, start=1):
        lines.append(f"  question {number}: {question.text}")
    if current.plan_version:
        lines.append(f"  plan version: {current.plan_version}")
    if current.branch:
        lines.append(f"  branch: {current.branch}")
    if current.pr_url:
        lines.append(f"  pull request: {current.pr_url}")
    for decision in current.decisions:
        when = decision.at.strftime("%Y-%m-%d %H:%M")
        lines.append(f"  {when} {decision.author} {decision.kind}: {decision.text[:80]}")
    lines += [f"  model tokens: {current.tokens}", f"  {link}"]
    return "\n".join(lines)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Parse the command line; a bare key means `start KEY`."""
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
        argv = ["start", *argv]
    parser = argparse.ArgumentParser(prog="starter.py", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    start_cmd = sub.add_parser("start", help="work on a ticket (same as: starter.py KEY)")
    start_cmd.add_argument("key")
    start_cmd.add_argument("--restart", action="store_true", help="run a finished ticket again")
    answer_cmd = sub.add_parser("answer", help="answer the ticket's questions")
    answer_cmd.add_argument("key")
    answer_cmd.add_argument("text", nargs="+")
    approve_cmd = sub.add_parser("approve", help="approve the plan under review")
    approve_cmd.add_argument("key")
    reject_cmd = sub.add_parser("reject", help="reject the plan, saying what to change")
    reject_cmd.add_argument("key")
    reject_cmd.add_argument("reason", nargs="+")
    status_cmd = sub.add_parser("status", help="where the ticket is")
    status_cmd.add_argument("key")
    for cmd in (answer_cmd, approve_cmd, reject_cmd):
        cmd.add_argument("--as", dest="author", default=getpass.getuser(), help="who you are")
    return parser.parse_args(argv)


async def run(args: argparse.Namespace, settings: Settings) -> str:
    """Carry out one command and return what to print."""
    key = check_key(args.key)
    if args.command == "start":
        return await start(settings, key, args.restart)
    if args.command == "answer":
        answer = AnswerInput(text=" ".join(args.text), author=args.author)
        return await send_update(settings, key, "submit_answer", answer)
    if args.command == "approve":
        return await send_update(settings, key, "approve_plan", ApprovalInput(author=args.author))
    if args.command == "reject":
        rejection = RejectionInput(reason=" ".join(args.reason), author=args.author)
        return await send_update(settings, key, "reject_plan", rejection)
    return await status(settings, key)


def main(argv: list[str] | None = None) -> int:
    """Entry point; errors are one line on stderr and exit code 1."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        print(asyncio.run(run(args, get_settings())))
    except CommandError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # The Temporal core's threads can crash interpreter finalisation; nothing is left to clean.
    os._exit(code)
