"""The command line: start a ticket, answer, approve, reject, budget, status, list, cancel."""

import argparse
import asyncio
import getpass
import os
import re
import sys
from datetime import UTC, datetime

from config import Settings, get_settings
from tickets.commands import (
    CommandError,
    cancel,
    list_tickets,
    parse_budget,
    send_update,
    start,
    status,
)
from tickets.launch import web_ui_link, workflow_id
from workflows.messages import (
    AnswerInput,
    ApprovalInput,
    BudgetInput,
    PhaseUsage,
    RejectionInput,
    Status,
    TicketStatus,
)

KEY_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]+-[1-9][0-9]*$")
COMMANDS = ("start", "answer", "approve", "reject", "budget", "status", "list", "cancel")


def check_key(key: str) -> str:
    """A Jira issue key like PROJ-123, or a clear error."""
    if not KEY_PATTERN.match(key):
        raise CommandError(f"'{key}' is not a Jira issue key; expected something like PROJ-123")
    return key


def render_status(current: TicketStatus, link: str, now: datetime | None = None) -> str:
    """The status query's answer as text; `now` times the phase under way."""
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
    if current.tests_note:  # a failed environment build, a sandbox limit hit, unsandboxed
        lines += [f"  tests: {line}" for line in current.tests_note.splitlines() if line.strip()]
    for decision in current.decisions:
        when = decision.at.strftime("%Y-%m-%d %H:%M")
        lines.append(f"  {when} {decision.author} {decision.kind}: {decision.text[:80]}")
    budget = f" of {current.token_budget}" if current.token_budget else ""
    lines.append(f"  model tokens: {current.tokens}{budget}")
    if current.usage:
        lines += ["", *(f"  {row}" for row in usage_table(current.usage, now).splitlines()), ""]
    lines.append(f"  {link}")
    return "\n".join(lines)


def usage_table(usage: list[PhaseUsage], now: datetime | None = None) -> str:
    """Time and model tokens per phase, with the time spent waiting on people apart.

    A phase still under way counts up to `now` (its start when not given).
    """
    rows = [f"{'phase':<16}{'working':>10}{'waiting':>10}{'tokens':>10}"]
    total_work = total_wait = total_tokens = 0.0
    for phase in usage:
        end = phase.ended_at or max(now or phase.started_at, phase.started_at)
        wait = phase.waiting_seconds
        if phase.waiting_since is not None and phase.ended_at is None:
            wait += max(0.0, (end - phase.waiting_since).total_seconds())
        work = (end - phase.started_at).total_seconds() - wait
        total_work, total_wait = total_work + work, total_wait + wait
        total_tokens += phase.tokens
        rows.append(f"{phase.phase.value:<16}{work:>9.1f}s{wait:>9.1f}s{phase.tokens:>10,}")
    rows.append(f"{'total':<16}{total_work:>9.1f}s{total_wait:>9.1f}s{int(total_tokens):>10,}")
    return "\n".join(rows)


def render_list(rows: list[dict[str, str]]) -> str:
    """Tickets as an aligned table."""
    if not rows:
        return "no tickets"
    lines = [f"{'KEY':<14} {'STATUS':<18} {'PHASE':<15} STARTED"]
    lines += [f"{r['key']:<14} {r['status']:<18} {r['phase']:<15} {r['started']}" for r in rows]
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
    start_cmd.add_argument(
        "--auto", action="store_true", help="no questions, no approval: straight to a PR"
    )
    answer_cmd = sub.add_parser("answer", help="answer the ticket's questions")
    answer_cmd.add_argument("key")
    answer_cmd.add_argument("text", nargs="+")
    approve_cmd = sub.add_parser("approve", help="approve the plan under review")
    approve_cmd.add_argument("key")
    reject_cmd = sub.add_parser("reject", help="reject the plan, saying what to change")
    reject_cmd.add_argument("key")
    reject_cmd.add_argument("reason", nargs="+")
    budget_cmd = sub.add_parser("budget", help="give the ticket more model tokens: +N")
    budget_cmd.add_argument("key")
    budget_cmd.add_argument("amount")
    for cmd in (answer_cmd, approve_cmd, reject_cmd, budget_cmd):
        cmd.add_argument("--as", dest="author", default=getpass.getuser(), help="who you are")
    sub.add_parser("status", help="where the ticket is").add_argument("key")
    sub.add_parser("cancel", help="stop work on the ticket").add_argument("key")
    list_cmd = sub.add_parser("list", help="tickets and their status")
    list_cmd.add_argument("--status", choices=[s.value for s in Status], help="only these")
    return parser.parse_args(argv)


async def run(args: argparse.Namespace, settings: Settings) -> str:
    """Carry out one command and return what to print."""
    if args.command == "list":
        return render_list(await list_tickets(settings, args.status))
    key = check_key(args.key)
    if args.command == "start":
        return await start(settings, key, args.restart, auto=args.auto)
    if args.command == "answer":
        answer = AnswerInput(text=" ".join(args.text), author=args.author)
        return await send_update(settings, key, "submit_answer", answer)
    if args.command == "approve":
        return await send_update(settings, key, "approve_plan", ApprovalInput(author=args.author))
    if args.command == "reject":
        rejection = RejectionInput(reason=" ".join(args.reason), author=args.author)
        return await send_update(settings, key, "reject_plan", rejection)
    if args.command == "budget":
        grant = BudgetInput(tokens=parse_budget(args.amount), author=args.author)
        return await send_update(settings, key, "raise_budget", grant)
    if args.command == "cancel":
        return await cancel(settings, key)
    current = await status(settings, key)
    return render_status(current, web_ui_link(settings, workflow_id(key)), datetime.now(UTC))


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
