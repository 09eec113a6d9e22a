"""`python -m embedded up` runs the stack (`--workers 3`: three workers); `python -m embedded
demo` runs DEMO-1 on it (`--tracker github`: the same story filed as a GitHub issue)."""

import argparse
import asyncio
import os
import sys

from config import Settings
from embedded.demo import drive, run_demo
from embedded.demo_issues import drive_issue
from embedded.stack import StackError, up
from embedded.workers import check_worker_count


def worker_count(text: str) -> int:
    """`--workers`: a whole number, one or more."""
    try:
        return check_worker_count(int(text))
    except ValueError as err:
        reason = str(err) if text.strip().lstrip("-").isdigit() else f"not a number: {text!r}"
        raise argparse.ArgumentTypeError(reason) from err


def main(argv: list[str] | None = None) -> int:
    """Entry point for `make up` and `make demo`."""
    parser = argparse.ArgumentParser(prog="python -m embedded", description=__doc__)
    parser.add_argument("command", choices=["up", "demo"])
    parser.add_argument("--tracker", choices=["jira", "github"], default="jira")
    parser.add_argument(
        "--workers",
        type=worker_count,
        default=1,
        help="how many worker processes `up` starts, each with its own data directory",
    )
    args = parser.parse_args(argv)
    if args.workers != 1 and args.command != "up":
        parser.error("--workers is for `up`; the demo runs on one worker")
    # The stack runs its own dev server: Temporal's client configuration is not for it.
    settings = Settings(temporal_env_config=False)
    try:
        if args.command == "up":
            asyncio.run(up(settings, args.workers))
            return 0
        scenario = drive_issue if args.tracker == "github" else drive
        return asyncio.run(run_demo(settings, scenario))
    except StackError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # The Temporal core's threads can crash interpreter finalisation; nothing is left to clean.
    os._exit(code)
