"""The GitHub webhook route: checks, reviews, comments and pushes become signals to tickets.

The ticket is found by the pull request's head branch (`ticketsmith/KEY-...`). Signatures are
checked, deliveries deduplicated, the bot's own events and PRs no ticket owns ignored, and
only the repository's people (or an allow-list) can start rounds.
"""

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.service import RPCError, RPCStatusCode

from config import Settings
from integrations.github.auth import github_token_source
from tickets.launch import workflow_id
from tickets.projects import ProjectConfig, ProjectConfigError, load_projects, project_for
from webhooks.dedup import DeliveryLog
from webhooks.github_events import GitHubEvent, read_event, ticket_key
from webhooks.github_issues import IssueEvents, is_issue_event
from webhooks.responses import SIGNATURE, error, github_json, ignored, parse_json
from webhooks.security import signature_valid

log = logging.getLogger("ticketsmith.webhooks.github")
TRUSTED = {"OWNER", "MEMBER", "COLLABORATOR"}


def create_github_router(
    settings: Settings,
    secret: str | None,
    deliveries: DeliveryLog,
    github_transport: httpx.AsyncBaseTransport | None = None,
) -> APIRouter:
    """The `/webhooks/github` route; `secret` None takes unsigned deliveries (the app decides)."""
    router = APIRouter()
    bot = settings.github_bot_login
    github_tokens = github_token_source(settings, github_transport)
    issues = IssueEvents(settings, unsigned=secret is None)

    @router.post("/webhooks/github")
    async def github_webhook(request: Request) -> JSONResponse:
        body = await request.body()
        if not signature_valid(secret, body, request.headers.get("X-Hub-Signature-256")):
            return error(401, SIGNATURE)
        payload, problem = parse_json(github_json(body, request.headers.get("Content-Type")))
        if not isinstance(payload, dict):
            return error(400, problem or "body is not a JSON object: send GitHub's payload")
        name = request.headers.get("X-GitHub-Event", "unknown")
        sender = (payload.get("sender") or {}).get("login")
        own = sender and sender.casefold() == bot.casefold()
        # Its own comments and pushes are ignored; a merge or close counts whoever did it.
        if own and not (name == "pull_request" and payload.get("action") == "closed"):
            return ignored(f"own event: sent by {bot}", event=name)
        if is_issue_event(name, payload):
            return await claimed(
                request.headers.get("X-GitHub-Delivery"),
                name,
                lambda delivery: issues.handle(request.app.state.temporal, name, payload, delivery),
            )
        try:
            event = read_event(name, payload, bot)
        except (KeyError, TypeError, ValueError) as err:
            return error(400, f"{name} payload is not shaped like GitHub's: missing {err}")
        if isinstance(event, str):
            return ignored(event, event=name)
        return await claimed(
            request.headers.get("X-GitHub-Delivery"),
            name,
            lambda delivery: route(request.app.state.temporal, event, payload, name, delivery),
        )

    async def claimed(
        delivery: str | None,
        name: str,
        act: Callable[[str | None], Awaitable[JSONResponse]],
    ) -> JSONResponse:
        """Act on a delivery once; a failure lets GitHub's redelivery try again."""
        if delivery and not deliveries.claim(delivery):
            return ignored(f"delivery {delivery} was already handled", event=name)
        try:
            return await act(delivery)
        except Exception:
            if delivery:
                deliveries.release(delivery)
            raise

    async def base_moved(
        temporal: Client, event: GitHubEvent, repository: str, name: str
    ) -> JSONResponse:
        """A push to a base branch: every ticket following a PR onto it checks its branch."""
        base = event.payload.base  # type: ignore[union-attr]
        projects = [
            p.jira_project
            for p in load_projects(settings.projects_file).values()
            if (repository.casefold(), base) in {(r.casefold(), b) for r, b in repositories(p)}
        ]
        if not projects:
            return ignored(f"{base} of {repository} is no configured project's base", event=name)
        listed = ", ".join(f"'{p}'" for p in projects)
        query = (
            "WorkflowType = 'TicketWorkflow' AND ExecutionStatus = 'Running' "
            f"AND Phase = 'review' AND Project IN ({listed})"
        )
        signalled = []
        async for found in temporal.list_workflows(query):
            try:
                await temporal.get_workflow_handle(found.id).signal(event.signal, event.payload)
            except RPCError as err:
                if err.status != RPCStatusCode.NOT_FOUND:
                    raise
                continue
            signalled.append(found.id)
        if not signalled:
            return ignored(f"no ticket follows a pull request onto {base}", event=name)
        body = {"status": "accepted", "signal": event.signal, "workflow_ids": signalled}
        return JSONResponse(body, status_code=202)

    async def route(
        temporal: Client,
        event: GitHubEvent,
        payload: dict[str, Any],
        name: str,
        delivery: str | None,
    ) -> JSONResponse:
        repository = str((payload.get("repository") or {}).get("full_name") or "")
        event.payload.delivery_id = delivery
        event.payload.unsigned = secret is None
        if event.signal == "base_branch_moved":
            return await base_moved(temporal, event, repository, name)
        branches = event.branches or await head_branch(repository, event.pr_number)
        key = next((k for k in map(ticket_key, branches) if k), None)
        if key is None:
            return ignored("no ticket owns this pull request", event=name)
        try:
            project = project_for(key, settings)
        except ProjectConfigError as err:
            return ignored(f"no ticket owns this pull request: {err}", event=name)
        if repository.casefold() not in {r.casefold() for r, _ in repositories(project)}:
            return ignored(f"{key} works on {project.repository}, not {repository}", event=name)
        if event.bot and not allow_listed(event.author, project):
            reason = f"{event.author} is a bot: bots start no rounds unless review_allow names them"
            return ignored(reason, event=name)
        if event.association is not None or event.author is not None:
            trusted = may_start_rounds(event, project)
            event.payload.trusted = trusted  # type: ignore[union-attr]
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
            await handle.signal(event.signal, event.payload)
        except RPCError as err:
            if err.status == RPCStatusCode.NOT_FOUND:
                return ignored(f"{handle.id} finished before the event arrived")
            raise
        body = {"status": "accepted", "signal": event.signal, "workflow_id": handle.id}
        if getattr(event.payload, "trusted", True) is False:
            body["note"] = f"{event.author} may not start rounds; they get one polite reply"
        return JSONResponse(body, status_code=202)

    async def head_branch(repository: str, number: int | None) -> list[str]:
        """The head branch of a pull request the payload names only by number."""
        if number is None or not repository:
            return []
        from integrations.github.client import GitHubClient

        async with GitHubClient(settings.github_api_url, github_tokens, github_transport) as github:
            return [(await github.get_pull_request(repository, number)).head]

    return router


def repositories(project: ProjectConfig) -> list[tuple[str, str]]:
    """Every repository a project's tickets may work on, with its base branch."""
    routes = [(r.repository, r.base_branch or project.base_branch) for r in project.repositories]
    return [(project.repository, project.base_branch), *routes]


def allow_listed(author: str | None, project: ProjectConfig) -> bool:
    """The login is on the project's `review_allow` list."""
    return (author or "").casefold() in {login.casefold() for login in project.review_allow}


def may_start_rounds(event: GitHubEvent, project: ProjectConfig) -> bool:
    """Owners, members and collaborators, or a login on the project's allow-list."""
    trusted = (event.association or "").upper() in TRUSTED
    return trusted or allow_listed(event.author, project)
