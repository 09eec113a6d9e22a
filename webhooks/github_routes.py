"""The GitHub webhook route: checks, reviews, comments and pushes become signals to tickets.

The ticket is found by the pull request's head branch (`ticketsmith/KEY-...`). Signatures are
checked, deliveries deduplicated, the bot's own events and PRs no ticket owns ignored, and
only the repository's people (or an allow-list) can start rounds.
"""

import logging
from typing import Any

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from temporalio.client import Client

from config import WebhookAppSettings
from integrations.github.auth import github_token_source
from tickets.projects import ProjectConfig
from webhooks.dedup import DeliveryLog, handled_once
from webhooks.github_events import GitHubEvent, read_event
from webhooks.github_issues import TRUSTED, IssueEvents, is_issue_event
from webhooks.payload_shape import GITHUB_OBJECTS, misshapen, shape_error
from webhooks.responses import SIGNATURE, error, github_json, ignored, parse_json
from webhooks.security import signature_valid
from webhooks.ticket_routing import allow_listed, signal_followers, signal_ticket

log = logging.getLogger("ticketsmith.webhooks.github")


def create_github_router(
    settings: WebhookAppSettings,
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
        if field := misshapen(payload, GITHUB_OBJECTS):
            return error(400, shape_error("GitHub", name, field))
        sender = (payload.get("sender") or {}).get("login")
        own = sender and sender.casefold() == bot.casefold()
        # Its own comments and pushes are ignored; a merge or close counts whoever did it.
        if own and not (name == "pull_request" and payload.get("action") == "closed"):
            return ignored(f"own event: sent by {bot}", event=name)
        if is_issue_event(name, payload):
            return await handled_once(
                deliveries,
                request.headers.get("X-GitHub-Delivery"),
                name,
                lambda delivery: issues.handle(request.app.state.temporal, name, payload, delivery),
            )
        try:
            event = read_event(name, payload, bot)
        except (AttributeError, KeyError, TypeError, ValueError) as err:
            return error(400, f"{name} payload is not shaped like GitHub's: missing {err}")
        if isinstance(event, str):
            return ignored(event, event=name)
        return await handled_once(
            deliveries,
            request.headers.get("X-GitHub-Delivery"),
            name,
            lambda delivery: route(request.app.state.temporal, event, payload, name, delivery),
        )

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
            base = event.payload.base  # type: ignore[union-attr]
            return await signal_followers(
                settings, temporal, event.signal, event.payload,
                repository=repository, base=base, event=name,
            )  # fmt: skip

        async def trust(project: ProjectConfig) -> bool | None:
            if event.association is None and event.author is None:
                return None
            return may_start_rounds(event, project)

        return await signal_ticket(
            settings, temporal, event.signal, event.payload, repository=repository,
            branches=event.branches or await head_branch(repository, event.pr_number),
            event=name, author=event.author, bot=event.bot, trust=trust,
        )  # fmt: skip

    async def head_branch(repository: str, number: int | None) -> list[str]:
        """The head branch of a pull request the payload names only by number."""
        if number is None or not repository:
            return []
        from integrations.github.client import GitHubClient

        async with GitHubClient(settings.github_api_url, github_tokens, github_transport) as github:
            return [(await github.get_pull_request(repository, number)).head]

    return router


def may_start_rounds(event: GitHubEvent, project: ProjectConfig) -> bool:
    """Owners, members and collaborators, or a login on the project's allow-list."""
    trusted = (event.association or "").upper() in TRUSTED
    return trusted or allow_listed(event.author, project)
