"""What each subcommand of starter.py does with its parsed arguments, and how its answer prints."""

import argparse
import asyncio
from datetime import UTC, datetime

from rich.console import Group, RenderableType

from cli import commands
from cli.graphs.listing import is_graph_id, list_graph_runs, render_runs
from cli.status.render import render_list, render_status
from cli.status.watch import follow
from cli.terminal import Answer, check_key, console
from config import CommandLineSettings, get_settings
from tickets.launch import web_ui_link, workflow_id
from workflows.ticket.messages import (
    AnswerInput,
    ApprovalInput,
    RejectionInput,
    SayInput,
    StopInput,
)


def start(args: argparse.Namespace) -> Answer:
    """Start the ticket (or attach to its run); with --follow, watch it afterwards."""
    settings = get_settings(CommandLineSettings)
    key = check_key(args.key)
    started = asyncio.run(commands.start(settings, key, args.restart, auto=args.auto))
    if not args.follow:
        return started
    console().print(started, markup=False)
    return follow(settings, key, console())  # outside the event loop: Ctrl-C stops it at once


async def answer(args: argparse.Namespace) -> str:
    """Send the answers to the ticket's questions."""
    text = AnswerInput(text=" ".join(args.text), author=args.author)
    return await commands.send_update(
        get_settings(CommandLineSettings), check_key(args.key), "submit_answer", text
    )


async def approve(args: argparse.Namespace) -> str:
    """Approve the plan under review."""
    approval = ApprovalInput(author=args.author, author_ids=[args.author])
    return await commands.send_update(
        get_settings(CommandLineSettings), check_key(args.key), "approve_plan", approval
    )


async def reject(args: argparse.Namespace) -> str:
    """Reject the plan with the reason that guides the next one."""
    rejection = RejectionInput(
        reason=" ".join(args.reason), author=args.author, author_ids=[args.author]
    )
    return await commands.send_update(
        get_settings(CommandLineSettings), check_key(args.key), "reject_plan", rejection
    )


async def budget(args: argparse.Namespace) -> str:
    """Give the ticket more model tokens or a higher cost cap."""
    grant = commands.parse_budget(args.amount, args.author)
    return await commands.send_update(
        get_settings(CommandLineSettings), check_key(args.key), "raise_budget", grant
    )


async def say(args: argparse.Namespace) -> str:
    """Guidance for the running implementation's next revision."""
    guidance = SayInput(text=" ".join(args.text), author=args.author)
    return await commands.send_update(
        get_settings(CommandLineSettings), check_key(args.key), "say_to", guidance
    )


async def stop(args: argparse.Namespace) -> str:
    """End the running implementation early with its best revision."""
    request = StopInput(author=args.author)
    return await commands.send_update(
        get_settings(CommandLineSettings), check_key(args.key), "stop_now", request
    )


async def status(args: argparse.Namespace) -> RenderableType:
    """Where the ticket is, with a one-line preview of each decision (whole with --full)."""
    settings = get_settings(CommandLineSettings)
    if is_graph_id(args.key):
        from cli.graphs.runs import graph_command  # graph definitions load only for graphs

        return await graph_command(args, settings)
    key = check_key(args.key)
    current = await commands.status_shown(settings, key)
    link = web_ui_link(settings, workflow_id(key))
    return render_status(current, link, datetime.now(UTC), full=args.full)


async def cancel(args: argparse.Namespace) -> str:
    """Stop work on the ticket (or the graph run)."""
    if is_graph_id(args.key):
        from cli.graphs.runs import graph_command

        return await graph_command(args, get_settings(CommandLineSettings))
    return await commands.cancel(get_settings(CommandLineSettings), check_key(args.key))


async def list_tickets(args: argparse.Namespace) -> RenderableType:
    """Tickets known to Temporal, newest first, then graph runs."""
    settings = get_settings(CommandLineSettings)
    tickets = render_list(await commands.list_tickets(settings, args.status))
    runs = await list_graph_runs(settings, args.status)
    return Group(tickets, render_runs(runs)) if runs else tickets
