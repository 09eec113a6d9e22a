"""The command line: tickets (start, watch, answer, approve, reject, budget, say, stop, status,
list, cancel, merge and close their pull request), graph runs (graph, mvp, input) and research
questions (research).

Each subcommand is one row of COMMANDS: its arguments, and the function that carries it out,
named as "module:function" and imported only when that subcommand runs, so that `--help` is
instant and no subcommand loads more than it needs: never the agent graphs or LangChain
(tests/test_starter_imports.py checks every row). A new subcommand is a new row.
"""

import argparse
import getpass
import importlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Arguments = Callable[[argparse.ArgumentParser], None]
WEBHOOKS = (
    "Jira comments and GitHub events reach tickets through the webhook app, which checks "
    "their signatures with TICKETSMITH_WEBHOOK_SECRET: `make up` and `make demo` make one "
    "and keep it in <TICKETSMITH_DATA_DIR>/webhook-secret (.data/webhook-secret), and the "
    "emulators sign with it."
)


@dataclass(frozen=True)
class Command:
    """One subcommand: what it is for, its arguments and where its code lives."""

    name: str
    help: str
    arguments: Arguments
    target: str  # "module:function"; an async function(args) returning what to print


def key(parser: argparse.ArgumentParser) -> None:
    """The ticket key argument alone."""
    parser.add_argument("key", help="the Jira issue key, like PROJ-123")


def author(parser: argparse.ArgumentParser) -> None:
    """Who gives the input; defaults to the login name."""
    parser.add_argument("--as", dest="author", default=getpass.getuser(), help="who you are")


def start_arguments(parser: argparse.ArgumentParser) -> None:
    """`start KEY [--restart] [--auto] [--follow]`."""
    key(parser)
    parser.add_argument("--restart", action="store_true", help="run a finished ticket again")
    parser.add_argument(
        "--auto", action="store_true", help="no questions, no approval: straight to a PR"
    )
    parser.add_argument("--follow", action="store_true", help="then watch it (as `watch KEY`)")


def text_arguments(name: str, what: str) -> Arguments:
    """`KEY WORDS... [--as WHO]`, the words under `name`."""

    def arguments(parser: argparse.ArgumentParser) -> None:
        key(parser)
        parser.add_argument(name, nargs="+", help=what)
        author(parser)

    return arguments


def keyed_with_author(parser: argparse.ArgumentParser) -> None:
    """`KEY [--as WHO]`."""
    key(parser)
    author(parser)


def budget_arguments(parser: argparse.ArgumentParser) -> None:
    """`KEY +N [--as WHO]`."""
    key(parser)
    parser.add_argument(
        "amount", help="more model tokens, like +50000, or more dollars of cost cap, like +5usd"
    )
    author(parser)


def status_arguments(parser: argparse.ArgumentParser) -> None:
    """`KEY [--full]`."""
    key(parser)
    parser.add_argument("--full", action="store_true", help="whole decision texts")


def graph_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a .yaml file, or the name of a shipped one (mvp)")
    parser.add_argument("--input", action="append", metavar="NAME=VALUE", help="an input")
    parser.add_argument("--wait", action="store_true", help="wait for the end and say how")


def mvp_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("prompt", nargs="+")
    parser.add_argument("--output", default="output", help="where projects are written")


def input_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("key", metavar="RUN_ID")
    parser.add_argument("name")
    parser.add_argument("values", nargs="*", metavar="NAME=VALUE")
    author(parser)


def list_arguments(parser: argparse.ArgumentParser) -> None:
    """`[--status STATUS]`; the statuses are spelled out so that parsing imports nothing."""
    statuses = ["running", "awaiting_answers", "awaiting_approval", "awaiting_budget"]
    statuses += ["awaiting_review", "completed", "merged", "closed", "failed", "cancelled"]
    statuses += ["expired"]
    parser.add_argument("--status", choices=statuses, help="only these")


def research_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("question", nargs="+", help="the research question")
    parser.add_argument("--json", action="store_true", help="print the structured report")
    parser.add_argument("--faults", metavar="FILE", help="a tool server fault profile for this run")
    parser.add_argument(
        "--id", dest="workflow_id", help="the workflow id (default: from the question)"
    )


COMMANDS = (
    Command("start", "work on a ticket (same as: starter.py KEY)", start_arguments,
            "cli.handlers:start"),
    Command("watch", "show a ticket's progress live until it ends (Ctrl-C stops watching)", key,
            "cli.status.watch:watch"),
    Command("answer", "answer the ticket's questions", text_arguments("text", "the answers"),
            "cli.handlers:answer"),
    Command("approve", "approve the plan under review", keyed_with_author, "cli.handlers:approve"),
    Command("reject", "reject the plan, saying what to change",
            text_arguments("reason", "what to change"), "cli.handlers:reject"),
    Command("budget", "more model tokens (+N) or a higher cost cap (+Nusd)", budget_arguments,
            "cli.handlers:budget"),
    Command("say", "guidance for the running implementation's next revision",
            text_arguments("text", "what to tell it"), "cli.handlers:say"),
    Command("stop", "end the running implementation early with its best revision",
            keyed_with_author, "cli.handlers:stop"),
    Command("status", "where the ticket (or graph run) is", status_arguments,
            "cli.status.show:status"),
    Command("cancel", "stop the ticket (or graph run)", key, "cli.handlers:cancel"),
    Command("merge", "merge the ticket's pull request", key, "cli.pull_requests:merge_command"),
    Command("close", "close the ticket's pull request without merging", key,
            "cli.pull_requests:close_command"),
    Command("list", "tickets and graph runs, and their status", list_arguments,
            "cli.status.listing:list_tickets"),
    Command("graph", "run a graph definition (YAML)", graph_arguments, "cli.graphs.handlers:graph"),
    Command("mvp", "build a tested project from one request", mvp_arguments,
            "cli.graphs.handlers:mvp"),
    Command("input", "human input for a graph run's wait step", input_arguments,
            "cli.graphs.handlers:graph_input"),
    Command("research", "answer a question from Jira, documents, PDFs and the web, with sources",
            research_arguments, "research.command:research"),
)  # fmt: skip


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Parse the command line; a bare key means `start KEY`."""
    names = {command.name for command in COMMANDS}
    if argv and argv[0] not in names and not argv[0].startswith("-"):
        argv = ["start", *argv]
    parser = argparse.ArgumentParser(
        prog="starter.py", description=__doc__.split("\n")[0], epilog=WEBHOOKS
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.arguments(sub.add_parser(command.name, help=command.help))
    return parser.parse_args(argv)


def handler(name: str) -> Any:
    """The async function that carries out a subcommand, imported now that it runs."""
    target = next(command.target for command in COMMANDS if command.name == name)
    module, function = target.split(":")
    return getattr(importlib.import_module(module), function)


def main(argv: list[str] | None = None) -> int:
    """Entry point; errors are one line on stderr and exit code 1."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from cli.terminal import run  # after parsing: --help and bad arguments stay instant

    return run(handler(args.command), args)


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # The Temporal core's threads can crash interpreter finalisation; nothing is left to clean.
    os._exit(code)
