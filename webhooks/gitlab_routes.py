"""The GitLab webhook route: merge request changes, pipelines, notes and pushes become signals
to tickets.

The ticket is found by the merge request's source branch (`ticketsmith/KEY-...`). The
`X-Gitlab-Token` GitLab sends verbatim is compared with the shared secret in constant time,
deliveries are deduplicated by their `Idempotency-Key`, the bot's own events ignored, and only
the project's developers and above (or an allow-list) can start rounds.
"""

import hmac

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from temporalio.client import Client

from config import WebhookAppSettings
from integrations.gitlab.client import GitLabClient
from tickets.projects import ProjectConfig
from webhooks.dedup import DeliveryLog, handled_once
from webhooks.gitlab_events import GitLabEvent, read_gitlab_event, sender
from webhooks.payload_shape import GITLAB_OBJECTS, misshapen, shape_error
from webhooks.responses import error, ignored, parse_json
from webhooks.ticket_routing import allow_listed, signal_followers, signal_ticket

DEVELOPER = 30  # GitLab's access level from which a member may push, and may start rounds here
TOKEN = (
    "X-Gitlab-Token missing or wrong: set the webhook's secret token in GitLab to "
    "TICKETSMITH_WEBHOOK_SECRET"
)
NO_EVENT = "no X-Gitlab-Event header: send GitLab's webhook deliveries here"


def token_valid(secret: str | None, header: str | None) -> bool:
    """Whether the delivery carries the secret; any does when `secret` is None (allowed only
    with TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED)."""
    if secret is None:
        return True
    return bool(header) and hmac.compare_digest(secret.encode(), (header or "").encode())


def create_gitlab_router(
    settings: WebhookAppSettings,
    secret: str | None,
    deliveries: DeliveryLog,
    gitlab_transport: httpx.AsyncBaseTransport | None = None,
) -> APIRouter:
    """The `/webhooks/gitlab` route; `secret` None takes deliveries without a token."""
    router = APIRouter()
    bot = settings.gitlab_bot_username

    @router.post("/webhooks/gitlab")
    async def gitlab_webhook(request: Request) -> JSONResponse:
        if not token_valid(secret, request.headers.get("X-Gitlab-Token")):
            return error(401, TOKEN)
        name = request.headers.get("X-Gitlab-Event")
        if not name:
            return error(400, NO_EVENT)
        payload, problem = parse_json(await request.body())
        if not isinstance(payload, dict):
            return error(400, problem or "body is not a JSON object: send GitLab's payload")
        if field := misshapen(payload, GITLAB_OBJECTS):
            return error(400, shape_error("GitLab", name, field))
        attrs = payload.get("object_attributes") or {}
        closing = name == "Merge Request Hook" and attrs.get("action") in ("merge", "close")
        # Its own notes and pushes are ignored; a merge or close counts whoever did it, and a
        # pipeline whoever pushed (mostly ticketsmith itself).
        anyone = closing or name == "Pipeline Hook"
        if sender(payload).casefold() == bot.casefold() and not anyone:
            return ignored(f"own event: sent by {bot}", event=name)
        try:
            event = read_gitlab_event(name, payload, bot)
        except (AttributeError, KeyError, TypeError, ValueError) as err:
            return error(400, f"{name} payload is not shaped like GitLab's: missing {err}")
        if isinstance(event, str):
            return ignored(event, event=name)
        project = payload.get("project") or {}
        repository = str(project.get("path_with_namespace") or "")
        delivery = request.headers.get("Idempotency-Key") or request.headers.get(
            "X-Gitlab-Event-UUID"
        )
        return await handled_once(
            deliveries, delivery, name,
            lambda d: route(request.app.state.temporal, event, repository, name, d),
        )  # fmt: skip

    async def route(
        temporal: Client, event: GitLabEvent, repository: str, name: str, delivery: str | None
    ) -> JSONResponse:
        event.payload.delivery_id = delivery
        event.payload.unsigned = secret is None
        if event.signal == "base_branch_moved":
            base = event.payload.base  # type: ignore[union-attr]
            return await signal_followers(
                settings, temporal, event.signal, event.payload,
                repository=repository, base=base, event=name,
            )  # fmt: skip

        async def trust(project: ProjectConfig) -> bool | None:
            if event.signal != "review_feedback":
                return None
            if allow_listed(event.author, project):
                return True
            return event.author_id is not None and await developer(repository, event.author_id)

        return await signal_ticket(
            settings, temporal, event.signal, event.payload, repository=repository,
            branches=event.branches, event=name, author=event.author, bot=event.bot, trust=trust,
        )  # fmt: skip

    async def developer(repository: str, user_id: int) -> bool:
        """Whether the user is a member of the project at Developer level or above."""
        token = settings.gitlab_token.get_secret_value()
        async with GitLabClient(settings.gitlab_api_url, token, gitlab_transport) as gitlab:
            level = await gitlab.access_level(repository, user_id)
        return level is not None and level >= DEVELOPER

    return router
