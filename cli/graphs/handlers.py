"""The graph subcommands of starter.py: run a definition, build an MVP, send a run its input."""

import argparse

from cli.graphs.runs import graph_command
from config import CommandLineSettings, get_settings


async def graph(args: argparse.Namespace) -> str:
    """Start a graph definition (and with --wait, say how it ended)."""
    return await graph_command(args, get_settings(CommandLineSettings))


async def mvp(args: argparse.Namespace) -> str:
    """Build a tested project from one request into the output folder."""
    from cli.graphs.mvp_run import run_mvp

    return await run_mvp(
        get_settings(CommandLineSettings), " ".join(args.prompt), args.output, say=print
    )


async def graph_input(args: argparse.Namespace) -> str:
    """Send the human input a graph run's wait step asks for."""
    return await graph_command(args, get_settings(CommandLineSettings))
