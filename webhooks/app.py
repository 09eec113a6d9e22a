"""The HTTP app that turns Jira, GitHub and GitLab webhooks into signals and ticket starts."""

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from temporalio.client import Client

from config import WebhookAppSettings, get_settings
from integrations.github.app import GitHubAppConfigError
from observability.logs import configure_logging, secret_values
from temporal import connection as temporal_connection
from temporal.client import connect_temporal
from tickets.launch import LaunchError, start_ticket, ticket_input, workflow_id
from tickets.routing import TicketFacts
from webhooks.dedup import DeliveryLog
from webhooks.github_routes import create_github_router
from webhooks.gitlab_routes import create_gitlab_router
from webhooks.jira_events import (
    LabelsAdded,
    MalformedEvent,
    is_comment_update,
    read_comment,
    read_labels_added,
    read_labels_created,
)
from webhooks.responses import SIGNATURE, error, ignored, parse_json
from webhooks.security import WebhookSecretError, signature_valid, webhook_secret
from webhooks.tracker_comments import deliver_comment
from webhooks.unsigned import NOTICE, UnsignedNotice

log = logging.getLogger("ticketsmith.webhooks")
SERVER_COMMENT = (
    "Jira Server/DC sends comment_created without its issue; the issue_updated event "
    "(issue_commented) that comes with it carries the comment and is the one acted on"
)


def create_app(
    settings: WebhookAppSettings | None = None,
    client: Client | None = None,
    github_transport: httpx.AsyncBaseTransport | None = None,
    gitlab_transport: httpx.AsyncBaseTransport | None = None,
) -> FastAPI:
    """The webhook app; the Temporal client is made once, in the lifespan.

    Raises WebhookSecretError without a webhook secret, unless unsigned deliveries are
    allowed explicitly; then every answer and every signal says "unsigned".
    """
    settings = settings or get_settings(WebhookAppSettings)
    secret = webhook_secret(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if secret is None:
            log.warning("taking unsigned webhook deliveries: %s", NOTICE)
        try:
            app.state.temporal = client or await connect_temporal(settings)
        except temporal_connection.TemporalConfigError as err:
            log.error("webhook app not started: %s", err)
            raise
        yield

    app = FastAPI(title="ticketsmith webhooks", lifespan=lifespan)
    if secret is None:
        app.add_middleware(UnsignedNotice)
    deliveries = DeliveryLog()

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/webhooks/jira")
    async def jira_webhook(request: Request) -> JSONResponse:
        body = await request.body()
        if not signature_valid(secret, body, request.headers.get("X-Hub-Signature")):
            return error(401, SIGNATURE)
        payload, problem = parse_json(body)
        if not isinstance(payload, dict):
            return error(400, problem or "body is not a JSON object: send Jira's webhook payload")
        event = payload.get("webhookEvent")
        handler = {
            "comment_created": on_comment,
            "jira:issue_updated": on_comment if is_comment_update(payload) else on_issue_updated,
            "jira:issue_created": on_issue_created,
        }.get(event if isinstance(event, str) else "")
        if handler is None:
            return ignored(f"event {event!r} is not one ticketsmith acts on", event=event)
        if event == "comment_created" and "issue" not in payload:
            return ignored(SERVER_COMMENT, event=event)
        delivery = request.headers.get("X-Atlassian-Webhook-Identifier")
        if delivery and not deliveries.claim(delivery):
            return ignored(f"delivery {delivery} was already handled")
        try:
            return await handler(request.app.state.temporal, payload, delivery)
        except MalformedEvent as err:
            return error(400, str(err))
        except Exception:
            if delivery:
                deliveries.release(delivery)  # let Jira's retry try again
            raise

    async def on_comment(
        temporal: Client, payload: dict[str, Any], delivery: str | None
    ) -> JSONResponse:
        comment = read_comment(payload)
        if settings.jira_bot_account_id in comment.author_ids:
            return ignored("own comment")
        # The comment id identifies the input even across webhooks that each deliver it once.
        key = f"jira-comment-{comment.comment_id}" if comment.comment_id else delivery
        label = settings.jira_start_label
        return await deliver_comment(
            temporal, comment, key, secret is None, lambda k: no_workflow(k, label)
        )

    async def on_issue_updated(
        temporal: Client, payload: dict[str, Any], delivery: str | None
    ) -> JSONResponse:
        return await start_on_label(temporal, read_labels_added(payload), "jira:issue_updated")

    async def on_issue_created(
        temporal: Client, payload: dict[str, Any], delivery: str | None
    ) -> JSONResponse:
        return await start_on_label(temporal, read_labels_created(payload), "jira:issue_created")

    async def start_on_label(temporal: Client, change: LabelsAdded, event: str) -> JSONResponse:
        label = settings.jira_start_label
        if not label or label.casefold() not in {x.casefold() for x in change.labels}:
            return ignored(f"the label {label!r} was not added", event=event)
        try:
            facts = TicketFacts(
                labels=change.issue_labels or change.labels, components=change.components
            )
            inp = ticket_input(change.issue_key, settings, facts=facts)
            inp.unsigned_start = secret is None
            outcome = await start_ticket(temporal, settings, inp, change.summary)
        except LaunchError as err:
            return ignored(str(err))
        body = {"status": "accepted", "workflow_id": outcome.workflow_id}
        return JSONResponse(body | {"started": not outcome.attached}, status_code=202)

    app.include_router(create_github_router(settings, secret, deliveries, github_transport))
    app.include_router(create_gitlab_router(settings, secret, deliveries, gitlab_transport))

    return app


def no_workflow(key: str, label: str) -> JSONResponse:
    """404 for a comment on a ticket ticketsmith is not working on."""
    how = f"`starter.py {key}`" + (f" or by adding the label '{label}' to it" if label else "")
    return error(
        404, f"no ticketsmith workflow for {key} ({workflow_id(key)}): start it with {how}"
    )


def serve() -> FastAPI:
    """The app as uvicorn runs it (`--factory`): JSON logs with every secret redacted; without
    a webhook secret, or with a GitHub App key it cannot read, it exits at once with one line
    saying what to set."""
    settings = get_settings(WebhookAppSettings)
    configure_logging(secrets=[*secret_values(settings), *temporal_connection.secrets()])
    try:
        return create_app(settings)
    except (WebhookSecretError, GitHubAppConfigError) as err:
        raise SystemExit(f"webhook app not started: {err}") from None
