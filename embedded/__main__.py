"""`python -m embedded up` runs the stack; `python -m embedded demo` runs DEMO-1 on it
(`--tracker github`: the same story filed as a GitHub issue)."""

import argparse
import asyncio
import os
import sys

from config import Settings
from embedded.demo import drive, run_demo
from embedded.demo_issues import drive_issue
from embedded.stack import StackError, up


def main(argv: list[str] | None = None) -> int:
    """Entry point for `make up` and `make demo`."""
    parser = argparse.ArgumentParser(prog="python -m embedded", description=__doc__)
    parser.add_argument("command", choices=["up", "demo"])
    parser.add_argument("--tracker", choices=["jira", "github"], default="jira")
    args = parser.parse_args(argv)
    # The stack runs its own dev server: Temporal's client configuration is not for it.
    settings = Settings(temporal_env_config=False)
    try:
        if args.command == "up":
            asyncio.run(up(settings))
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
