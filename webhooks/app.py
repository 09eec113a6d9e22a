"""The HTTP app that turns Jira and GitHub webhooks into workflow signals."""

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from temporalio.client import Client
from temporalio.service import RPCError, RPCStatusCode

from config import Settings, connect_temporal, get_settings
from integrations.adf import adf_to_markdown
from webhooks.commands import parse_comment
from webhooks.security import signature_valid

JIRA_COMMENT_EVENTS = {"comment_created"}


def create_app(settings: Settings | None = None, client: Client | None = None) -> FastAPI:
    """The webhook app; the Temporal client is made once, in the lifespan."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.temporal = client or await connect_temporal(settings)
        yield

    app = FastAPI(title="ticketsmith webhooks", lifespan=lifespan)
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/webhooks/jira")
    async def jira_webhook(request: Request) -> JSONResponse:
        body = await request.body()
        if not signature_valid(secret, body, request.headers.get("X-Hub-Signature")):
            return error(401, "signature missing or wrong: sign the raw body with the secret")
        payload = parse_json(body)
        if not isinstance(payload, dict):
            return error(400, "body is not a JSON object: send Jira's webhook payload as JSON")
        event = payload.get("webhookEvent")
        if event not in JIRA_COMMENT_EVENTS:
            return JSONResponse({"status": "ignored", "event": event})
        issue_key = (payload.get("issue") or {}).get("key")
        comment = payload.get("comment") or {}
        if not issue_key or not isinstance(comment, dict) or "body" not in comment:
            return error(400, "comment_created payload needs issue.key and comment.body")
        author = comment.get("author") or {}
        if author.get("accountId") == settings.jira_bot_account_id:
            return JSONResponse({"status": "ignored", "reason": "own comment"})
        text = comment_text(comment["body"])
        delivery = request.headers.get("X-Atlassian-Webhook-Identifier") or str(
            comment.get("id") or ""
        )
        message = parse_comment(text, author.get("displayName", "unknown"), delivery or None)
        if message is None:
            return JSONResponse({"status": "ignored", "reason": "own comment"})
        signal_name, signal_input = message
        handle = request.app.state.temporal.get_workflow_handle(f"ticket-{issue_key}")
        try:
            await handle.signal(signal_name, signal_input)
        except RPCError as err:
            if err.status == RPCStatusCode.NOT_FOUND:
                return error(404, f"no running ticketsmith work for {issue_key}")
            raise
        return JSONResponse({"status": "accepted", "signal": signal_name}, status_code=202)

    @app.post("/webhooks/github")
    async def github_webhook(request: Request) -> JSONResponse:
        body = await request.body()
        if not signature_valid(secret, body, request.headers.get("X-Hub-Signature-256")):
            return error(401, "signature missing or wrong: sign the raw body with the secret")
        event = request.headers.get("X-GitHub-Event", "unknown")
        return JSONResponse({"status": "ignored", "event": event})

    return app


def parse_json(body: bytes) -> Any:
    """The body as JSON, or None when it is not JSON."""
    try:
        return json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None


def comment_text(body: Any) -> str:
    """Comment text from Jira Cloud (ADF) or Server (wiki markup string)."""
    return body if isinstance(body, str) else adf_to_markdown(body)


def error(status: int, message: str) -> JSONResponse:
    """A JSON error saying what was wrong."""
    return JSONResponse({"error": message}, status_code=status)


app = create_app()
