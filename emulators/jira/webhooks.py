"""Jira webhooks sent by the emulator: signed, in the background, retried like Jira retries."""

import asyncio
import hashlib
import hmac
import json
import uuid
from typing import Any

import httpx
import structlog

from emulators.background import BackgroundWork

log = structlog.get_logger(__name__)

RETRYABLE = {408, 409, 425, 429, 500, 502, 503, 504}


def sign(secret: str, body: bytes) -> str:
    """The X-Hub-Signature header of a Jira secret-based webhook: HMAC-SHA256 of the raw body."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class JiraWebhooks:
    """Sends each event to one URL in the background and keeps a log of the deliveries."""

    # A delivery keeps its X-Atlassian-Webhook-Identifier through retries and redeliveries, so
    # receivers can deduplicate by it. Without a URL nothing is sent.

    def __init__(
        self,
        url: str | None,
        secret: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        attempts: int = 4,
        backoff_seconds: float = 0.5,
        server: bool = False,
    ) -> None:
        self.url = url or None
        self.server = server  # Jira Server/DC payloads rather than Cloud's
        self.secret = secret or None
        self.attempts = attempts
        self.backoff_seconds = backoff_seconds
        self.deliveries: list[dict[str, Any]] = []
        self._transport = transport
        self._http: httpx.AsyncClient | None = None
        self._background = BackgroundWork()

    def emit(self, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Queue an event for delivery; returns its log entry (None when no URL is set)."""
        return self.queue(
            event=payload.get("webhookEvent"),
            issue=(payload.get("issue") or {}).get("key"),
            payload=payload,
        )

    def queue(self, **fields: Any) -> dict[str, Any] | None:
        """Log a delivery of `fields` under a new id and send it in the background (None when
        no URL is set)."""
        if self.url is None:
            return None
        delivery = {"id": str(uuid.uuid4()), **fields, "attempts": [], "state": "pending"}
        self.deliveries.append(delivery)
        self._schedule(delivery)
        return delivery

    def redeliver(self, delivery_id: str) -> dict[str, Any] | None:
        """Send a delivery again with the same identifier and body, as Jira may."""
        delivery = next((d for d in self.deliveries if d["id"] == delivery_id), None)
        if delivery is not None:
            delivery["state"] = "pending"
            self._schedule(delivery)
        return delivery

    def _schedule(self, delivery: dict[str, Any]) -> None:
        self._background.start(self._deliver(delivery))

    async def _deliver(self, delivery: dict[str, Any]) -> None:
        url = self.url
        if url is None:
            return
        if self._http is None:
            self._http = httpx.AsyncClient(transport=self._transport, timeout=10)
        body = json.dumps(delivery["payload"]).encode()
        for attempt in range(self.attempts):
            headers = self.headers(delivery, attempt, body)
            try:
                response = await self._http.post(url, content=body, headers=headers)
            except httpx.HTTPError as err:
                delivery["attempts"].append({"error": f"{type(err).__name__}: {err}"})
            else:
                delivery["attempts"].append(
                    {"status_code": response.status_code, "response": response.text[:500]}
                )
                if response.status_code not in RETRYABLE:
                    delivery["state"] = "delivered" if response.is_success else "rejected"
                    return
            await asyncio.sleep(self.backoff_seconds * 2**attempt)
        delivery["state"] = "failed"
        log.warning("webhook not delivered", id=delivery["id"], event=delivery["event"])

    def headers(self, delivery: dict[str, Any], attempt: int, body: bytes) -> dict[str, str]:
        """The headers Jira sends with a delivery."""
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": "Atlassian Webhook HTTP Client",
            "X-Atlassian-Webhook-Identifier": delivery["id"],
        }
        if attempt:
            headers["X-Atlassian-Webhook-Retry"] = str(attempt)
        if self.secret:
            headers["X-Hub-Signature"] = sign(self.secret, body)
        return headers

    async def drain(self, timeout: float = 30) -> None:
        """Wait until every queued delivery has finished (tests, shutdown)."""
        await self._background.drain(timeout)

    async def aclose(self) -> None:
        """Stop sending and close the connection pool."""
        await self._background.aclose()
        if self._http is not None:
            await self._http.aclose()
