"""Marks every answer of a webhook app that takes unsigned deliveries, so nobody mistakes it
for one that checks them (TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED)."""

import json

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from webhooks.security import UNSIGNED_SETTING

HEADER = "X-Ticketsmith-Unsigned"
NOTICE = f"signatures are not checked ({UNSIGNED_SETTING}=true)"


def marked(body: bytes) -> bytes:
    """A JSON object's body with `"unsigned": true` added; any other body as it is."""
    try:
        answer = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return body
    if not isinstance(answer, dict):
        return body
    return json.dumps({**answer, "unsigned": True}, separators=(",", ":")).encode()


class UnsignedNotice:
    """Adds the header and, to JSON objects, the field that say the app checks no signature."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message = {}
        chunks: list[bytes] = []

        async def marking_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            if message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            body = b"".join(chunks)
            headers = MutableHeaders(scope=start)
            if headers.get("content-type", "").startswith("application/json"):
                body = marked(body)
                headers["content-length"] = str(len(body))
            headers[HEADER] = NOTICE
            await send(start)
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, marking_send)
