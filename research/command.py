"""`starter.py research "question"`: run the research graph, print progress, then the report."""

import argparse
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from access.admin import admin_headers
from cli.commands import CommandError
from config import CommandLineSettings, get_settings


@asynccontextmanager
async def faults_for_the_run(
    url: str, path: Path | None, headers: dict[str, str] | None = None
) -> AsyncIterator[None]:
    """Put a fault profile in force on the tool server for the run, then restore the previous."""
    if path is None:
        yield
        return
    from toolserver.faults import FaultProfile

    try:
        profile = FaultProfile.from_file(path)
    except ValueError as err:
        raise CommandError(str(err)) from err
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=10) as http:
        try:
            previous = (await http.get("/_faults")).raise_for_status().json()
            (await http.put("/_faults", json=profile.model_dump())).raise_for_status()
        except httpx.HTTPError as err:
            raise CommandError(
                f"cannot set faults on the tool server at {url} ({err}); is it running (make up)?"
            ) from err
        try:
            yield
        finally:
            await http.put("/_faults", json=previous)


async def research(args: argparse.Namespace) -> int:
    """Run the research graph for the question: progress on stderr, the report on stdout."""
    from cli.commands import connect
    from graphs.dsl.loader import load_definition
    from graphs.dsl.model import AgentStep
    from research.follow import follow, report_json
    from research.launch import DEFINITION, check_question, start_research
    from tickets.launch import web_ui_link

    settings = get_settings(CommandLineSettings)
    try:
        question = check_question(" ".join(args.question))
    except ValueError as err:
        raise CommandError(str(err)) from err
    agents = agent_steps(load_definition(DEFINITION).steps, AgentStep)
    faults = Path(args.faults) if args.faults else None
    client = await connect(settings)
    async with faults_for_the_run(settings.toolserver_url, faults, admin_headers(settings)):
        started = await start_research(client, settings, question, args.workflow_id)
        verb = "attached to the run already under way" if started.attached else "started"
        say(f"research {started.handle.id} {verb}")
        say(f"  {web_ui_link(settings, started.handle.id)}")
        result = await follow(started.handle, agents, say)
    if args.json:
        print(report_json(result, started.handle.id, agents))
        return 0
    markdown = (result.state.get("synthesis") or {}).get("result", {}).get("markdown")
    if not markdown:
        raise CommandError(f"the research ended {result.status.value}: {result.message}")
    # Printed as it is: the markdown's long lines (sources with URLs) must not be wrapped.
    print(markdown, end="")
    return 0


def agent_steps(steps: Sequence[object], agent_type: type) -> dict[str, str]:
    """Agent step name -> agent, through sequences and parallel branches, in order."""
    found: dict[str, str] = {}
    for step in steps:
        if isinstance(step, agent_type):
            found[step.label()] = step.agent  # type: ignore[attr-defined]
        for branch in step.children():  # type: ignore[attr-defined]
            found |= agent_steps(branch, agent_type)
    return found


def say(line: str) -> None:
    """A progress line, on stderr so that stdout holds only the report."""
    print(line, file=sys.stderr, flush=True)
