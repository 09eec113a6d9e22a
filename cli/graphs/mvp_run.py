"""`starter.py mvp "Build an MVP for ..."`: run the MVP graph, write each revision's files
into output/<slug>/ as it completes, and report the QA verdict, tests, tokens and time."""

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from temporalio.client import WorkflowFailureError
from temporalio.service import RPCError

from cli.commands import CommandError
from cli.graphs.runs import checked_definition, start_graph
from config import CommandLineSettings
from graphs.mvp.project import slugify, write_tree
from tickets.launch import web_ui_link
from workflows.graph.messages import GraphResult, GraphStatus

POLL_SECONDS = 0.5


CHECKPOINTS = {
    "accepted": "the manager took the request",
    "designed": "the architect planned the files",
    "reviewed": "QA finished",
    "publish_failed": "the forge could not take a revision (the files are still written here)",
}


class ProjectWriter:
    """Writes the project's files whenever a new revision shows in the run's state."""

    def __init__(self, root: Path, say: Callable[[str], None]) -> None:
        self.root = root
        self.say = say
        self.revision = 0
        self.checkpoints = 0

    def follow(self, current: GraphStatus) -> None:
        """Say which checkpoints were passed, and write any new revision."""
        for name in current.checkpoints[self.checkpoints :]:
            self.say(f"{name}: {CHECKPOINTS.get(name, name)}")
        self.checkpoints = len(current.checkpoints)
        self.update(current.state)

    def update(self, state: dict[str, Any]) -> None:
        """Write the latest revision's files, once per revision."""
        project = state.get("project") or {}
        revision = int(project.get("revision") or 0)
        if revision <= self.revision:
            return
        self.revision = revision
        files = project.get("files") or {}
        written = write_tree(self.root, files)
        tests = project.get("tests")
        outcome = "no tests ran" if not tests else ("passed" if tests["passed"] else "failed")
        smoke = project.get("smoke") or {}
        ran = "" if not smoke.get("ran") else (
            "; smoke run passed" if smoke.get("passed") else "; smoke run failed"
        )  # fmt: skip
        self.say(f"revision {revision}: {len(written)} files in {self.root}; tests {outcome}{ran}")


def report(result: GraphResult, seconds: float, root: Path, link: str) -> str:
    """The final report: verdict, tests, repository, tokens, time."""
    state = result.state
    manager = state.get("manager") or {}
    if manager and not manager.get("development", True):
        return f"Not a development request: {result.message}\n{link}"
    project = state.get("project") or {}
    tests = project.get("tests")
    qa = state.get("qa") or {}
    lines = [f"QA verdict: {qa.get('verdict') or result.message}"]
    lines += working_lines(qa, project)
    if tests:
        verdict = "passed" if tests["passed"] else f"failed (exit code {tests['exit_code']})"
        lines.append(f"Tests (`{project.get('test_command')}`): {verdict}")
        if tests.get("environment_error"):
            lines.append(f"  the environment could not be built: {tests['environment_error']}")
    else:
        lines.append("Tests: none ran (no test files were written)")
    files = project.get("files") or {}
    lines.append(f"Files: {len(files)} in {root}" if files else "Files: none written")
    published = state.get("publish") or {}
    if published.get("url"):
        draft = " (a draft: not working yet)" if published.get("draft") else ""
        lines.append(f"Repository: {published['url']}{draft}")
    lines.append(f"Revisions: {project.get('revision', 0)}")
    lines.append(f"Model tokens: {result.tokens:,} ({result.cost.split()})")
    lines.append(f"Cost: {result.cost.text()}")
    lines.append(f"Time: {seconds:.1f}s")
    lines.append(link)
    return "\n".join(lines)


def working_lines(qa: dict[str, Any], project: dict[str, Any]) -> list[str]:
    """Whether the project works as a user would call it, what is missing, the smoke run."""
    lines = []
    if qa.get("working") is not None:
        problems = qa.get("problems") or []
        lines.append("Working: yes" if not problems else "Working: NO, what is missing:")
        lines += [f"  - {problem}" for problem in problems]
    smoke = project.get("smoke")
    if smoke:
        if not smoke.get("ran"):
            lines.append(f"Smoke run: not run ({smoke.get('note')})")
        else:
            code = smoke.get("exit_code")
            verdict = "passed" if smoke.get("passed") else f"failed (exit code {code})"
            lines.append(f"Smoke run (`{smoke['command']}`): {verdict}")
            lines += [f"  | {line}" for line in (smoke.get("output") or "").splitlines()[-8:]]
    return lines


async def run_mvp(
    settings: CommandLineSettings, prompt: str, output: str, say: Callable[[str], None]
) -> str:
    """Run the MVP graph for a request and follow it to the end."""
    if not prompt.strip():
        raise CommandError('say what to build: starter.py mvp "Build an MVP for a todo-list app"')
    slug = slugify(prompt)
    definition = checked_definition("mvp")
    started = time.monotonic()
    _, handle = await start_graph(settings, definition, {"prompt": prompt, "slug": slug}, slug)
    link = web_ui_link(settings, handle.id, handle.result_run_id)
    say(f"started {handle.id}\n{link}")
    writer = ProjectWriter(Path(output) / slug, say)
    result_task = asyncio.ensure_future(handle.result())
    while not result_task.done():
        await asyncio.wait([result_task], timeout=POLL_SECONDS)
        try:
            current = await handle.query("status", result_type=GraphStatus)
        except RPCError:  # the run may end between the check and the query
            continue
        writer.follow(current)
    try:
        result = result_task.result()
    except WorkflowFailureError as err:
        raise CommandError(f"{handle.id} failed: {err.cause}") from None
    writer.update(result.state)
    return report(result, time.monotonic() - started, writer.root, link)
