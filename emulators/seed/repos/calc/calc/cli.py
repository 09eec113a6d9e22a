"""Command-line interface: `python -m calc add 2 3`."""

import argparse
import sys
from collections.abc import Callable, Sequence

from calc.operations import add, divide, multiply, subtract

COMMANDS: dict[str, Callable[[float, float], float]] = {
    "add": add,
    "sub": subtract,
    "mul": multiply,
    "div": divide,
}


def format_number(value: float) -> str:
    """Show whole numbers without a trailing .0."""
    return str(int(value)) if float(value).is_integer() else str(value)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subcommand per operation."""
    parser = argparse.ArgumentParser(prog="calc", description="A tiny calculator.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, operation in COMMANDS.items():
        command = commands.add_parser(name, help=operation.__doc__)
        command.add_argument("a", type=float)
        command.add_argument("b", type=float)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the calculator and print the result; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        result = COMMANDS[args.command](args.a, args.b)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(format_number(result))
    return 0
