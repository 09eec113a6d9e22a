"""Logs every API request and applies the injected faults: latency, errors, lost responses."""

import asyncio
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from emulators.state import RequestLog, now
from faults.bodies import buffer_json_body
from faults.injector import FaultInjector, Hit

# (path, status code, message, headers) -> an error response in the API's own shape
ErrorResponse = Callable[[str, int, str, dict[str, str] | None], JSONResponse]
_MESSAGES = {
    429: "Rate limit exceeded.",
    500: "Internal server error (injected fault).",
    502: "Bad gateway (injected fault).",
    503: "Service unavailable (injected fault).",
}


class RecordingMiddleware:
    """Logs every request outside /_emulator; faults act before routing or after handling."""

    def __init__(
        self, app: ASGIApp, log: RequestLog, faults: FaultInjector, error: ErrorResponse
    ) -> None:
        self.app = app
        self.log = log
        self.faults = faults
        self.error = error

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/_emulator/"):
            await self.app(scope, receive, send)
            return
        started = now()
        method, path = scope["method"], scope["path"]
        query = dict(parse_qsl(scope["query_string"].decode()))
        body, receive = await buffer_json_body(scope, receive)
        status_code, recorded = 500, False
        hit = self.faults.take(method, path)

        def record() -> None:
            nonlocal recorded
            if not recorded:
                recorded = True
                self.log.record(method, path, query, status_code, body, started, _describe(hit))

        async def recording_send(message: Message) -> None:
            nonlocal status_code
            if message["type"] == "http.response.start":
                # Logged before the client can read the answer: a client that asks for the
                # log right after its response must find its request in it.
                status_code = message["status"]
                record()
            await send(message)

        async def swallow(message: Message) -> None:
            """The API's answer to a request whose response is lost."""

        try:
            if hit and hit.delay_seconds:
                await asyncio.sleep(hit.delay_seconds)
            if hit and hit.status_code and hit.when == "after":
                await self.app(scope, receive, swallow)
            if hit and hit.status_code:
                await self._injected(hit, path)(scope, receive, recording_send)
            else:
                await self.app(scope, receive, recording_send)
        finally:
            record()

    def _injected(self, hit: Hit, path: str) -> JSONResponse:
        """The error answer of a fault, in the body shape of the API the path belongs to."""
        status = hit.status_code or 500
        headers = dict(hit.headers)
        if hit.retry_after is not None:
            headers.setdefault("Retry-After", f"{hit.retry_after:g}")
        if hit.body is not None:
            return JSONResponse(hit.body, status, headers=headers)
        message = _MESSAGES.get(status, f"Injected fault {status}")
        if status == 429 and path.startswith("/api/webhooks/"):
            body = {"message": "You are being rate limited.", "global": False}
            body["retry_after"] = hit.retry_after if hit.retry_after is not None else 1.0
            return JSONResponse(body, status, headers=headers)
        if status == 429 and path.startswith("/api/v3/"):
            message = "API rate limit exceeded for installation."
        return self.error(path, status, message, headers)


def _describe(hit: Hit | None) -> dict[str, Any] | None:
    """What a fault did to a request, for the log."""
    if hit is None:
        return None
    out: dict[str, Any] = {"delay_seconds": round(hit.delay_seconds, 3)}
    if hit.status_code:
        out |= {"status_code": hit.status_code, "when": hit.when}
    return out
