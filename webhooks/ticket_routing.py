"""Code-host events to the tickets they concern, for the GitHub and GitLab routes alike: a pull
or merge request's event to the ticket its branch names, a base branch's push to every ticket
following a request onto it."""

import re
from collections.abc import Awaitable, Callable

from fastapi.responses import JSONResponse
from pydantic import BaseModel
from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.service import RPCError, RPCStatusCode

from config import WebhookAppSettings
from tickets.launch import workflow_id
from tickets.projects import ProjectConfig, ProjectConfigError, load_projects, project_for
from webhooks.responses import ignored

BRANCH = re.compile(r"^ticketsmith/(?P<key>[A-Z][A-Z0-9_]*-\d+)(?:-|$)")
# Whether the event's author may start rounds on the project; None: the event has no author.
Trust = Callable[[ProjectConfig], Awaitable[bool | None]]


def ticket_key(branch: str) -> str | None:
    """The ticket a ticketsmith branch belongs to (`ticketsmith/KEY-slug`)."""
    found = BRANCH.match(branch)
    return found["key"] if found else None


def repositories(project: ProjectConfig) -> list[tuple[str, str]]:
    """Every repository a project's tickets may work on, with its base branch."""
    routes = [(r.repository, r.base_branch or project.base_branch) for r in project.repositories]
    return [(project.repository, project.base_branch), *routes]


def allow_listed(author: str | None, project: ProjectConfig) -> bool:
    """The login is on the project's `review_allow` list."""
    return (author or "").casefold() in {login.casefold() for login in project.review_allow}


async def signal_ticket(
    settings: WebhookAppSettings, temporal: Client, signal: str, payload: BaseModel, *,
    repository: str, branches: list[str], event: str, author: str | None = None,
    bot: bool = False, trust: Trust | None = None,
) -> JSONResponse:  # fmt: skip
    """Send the signal to the running ticket whose branch is among `branches`, when the event
    comes from the repository it works on and from someone it listens to."""
    key = next((k for k in map(ticket_key, branches) if k), None)
    if key is None:
        return ignored("no ticket owns this pull request", event=event)
    try:
        project = project_for(key, settings)
    except ProjectConfigError as err:
        return ignored(f"no ticket owns this pull request: {err}", event=event)
    if repository.casefold() not in {r.casefold() for r, _ in repositories(project)}:
        return ignored(f"{key} works on {project.repository}, not {repository}", event=event)
    if bot and not allow_listed(author, project):
        reason = f"{author} is a bot: bots start no rounds unless review_allow names them"
        return ignored(reason, event=event)
    trusted = await trust(project) if trust is not None else None
    if trusted is not None:
        payload.trusted = trusted  # type: ignore[attr-defined]
    handle = temporal.get_workflow_handle(workflow_id(key))
    try:
        described = await handle.describe()
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            return ignored(f"no ticket owns this pull request: {handle.id} never ran")
        raise
    if described.status != WorkflowExecutionStatus.RUNNING:
        state = described.status.name.lower() if described.status else "closed"
        return ignored(f"{handle.id} is {state}; nothing follows this pull request")
    try:
        await handle.signal(signal, payload)
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            return ignored(f"{handle.id} finished before the event arrived")
        raise
    body = {"status": "accepted", "signal": signal, "workflow_id": handle.id}
    if trusted is False:
        body["note"] = f"{author} may not start rounds; they get one polite reply"
    return JSONResponse(body, status_code=202)


async def signal_followers(
    settings: WebhookAppSettings, temporal: Client, signal: str, payload: BaseModel, *,
    repository: str, base: str, event: str,
) -> JSONResponse:  # fmt: skip
    """A push to a base branch: every ticket following a request onto it checks its branch."""
    projects = [
        p.jira_project
        for p in load_projects(settings.projects_file).values()
        if (repository.casefold(), base) in {(r.casefold(), b) for r, b in repositories(p)}
    ]
    if not projects:
        return ignored(f"{base} of {repository} is no configured project's base", event=event)
    listed = ", ".join(f"'{p}'" for p in projects)
    query = (
        "WorkflowType = 'TicketWorkflow' AND ExecutionStatus = 'Running' "
        f"AND Phase = 'review' AND Project IN ({listed})"
    )
    signalled = []
    async for found in temporal.list_workflows(query):
        try:
            await temporal.get_workflow_handle(found.id).signal(signal, payload)
        except RPCError as err:
            if err.status != RPCStatusCode.NOT_FOUND:
                raise
            continue
        signalled.append(found.id)
    if not signalled:
        return ignored(f"no ticket follows a pull request onto {base}", event=event)
    body = {"status": "accepted", "signal": signal, "workflow_ids": signalled}
    return JSONResponse(body, status_code=202)
