"""The shared httpx client builder and the mapping of HTTP failures to Temporal errors.

Every request a client built here sends has the credentials in its JSON body redacted first:
whatever wrote the text (test output, a model's answer, an error), no secret leaves in it.
"""

import json
import re
import time
from datetime import timedelta
from email.utils import parsedate_to_datetime
from http import HTTPStatus
from types import TracebackType
from typing import Any, Self

import httpx
from temporalio.exceptions import ApplicationError

from integrations.security.secrets import SecretFinder, shapes_only

TIMEOUT = httpx.Timeout(30, connect=10)
_REASONS = {422: "ValidationFailed"}
# Webhook URLs carry their secret token in the path: keep it out of error messages.
_WEBHOOK_TOKEN = re.compile(r"(/webhooks/[^/]+/)[^/?]+")


def build_http_client(
    base_url: str,
    headers: dict[str, str] | None = None,
    auth: httpx.Auth | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    secrets: SecretFinder | None = None,
) -> httpx.AsyncClient:
    """An AsyncClient with the project's timeouts that redacts what it sends (the known shapes
    and, given a finder of them, the worker's own secret values); it never retries on its own."""
    return RedactingClient(
        secrets or shapes_only(),
        base_url=base_url,
        headers=headers,
        auth=auth,
        transport=transport,
        timeout=TIMEOUT,
        follow_redirects=True,
    )


class RedactingClient(httpx.AsyncClient):
    """An AsyncClient whose every request goes out with its JSON body's credentials redacted."""

    def __init__(self, secrets: SecretFinder, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._secrets = secrets

    async def send(self, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        """Send the request as it is, less the credentials in its body."""
        return await super().send(redacted_request(request, self._secrets), **kwargs)


def redacted_request(request: httpx.Request, secrets: SecretFinder) -> httpx.Request:
    """The request with every string in its JSON body redacted (the same request when none
    changed, or when it has no JSON body)."""
    if "json" not in request.headers.get("content-type", ""):
        return request
    try:
        body = json.loads(request.content)
    except (httpx.RequestNotRead, ValueError):  # a streamed body, or none: nothing to read
        return request
    clean = redacted(body, secrets)
    if clean == body:
        return request
    headers = httpx.Headers(request.headers)
    del headers["content-length"]
    content = json.dumps(clean, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return httpx.Request(
        request.method, request.url, headers=headers, content=content.encode(),
        extensions=request.extensions,
    )  # fmt: skip


def redacted(value: Any, secrets: SecretFinder) -> Any:
    """A JSON value with every string in it redacted."""
    if isinstance(value, str):
        return secrets.redact(value)
    if isinstance(value, list):
        return [redacted(item, secrets) for item in value]
    if isinstance(value, dict):
        return {key: redacted(item, secrets) for key, item in value.items()}
    return value


class ServiceClient:
    """Base of the service clients: owns one AsyncClient and closes it."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self._http = http

    async def aclose(self) -> None:
        """Close the underlying connection pool."""
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


GITHUB_SECONDARY_WAIT = timedelta(minutes=1)


def raise_for_status(service: str, response: httpx.Response) -> None:
    """Return on 2xx; otherwise raise an ApplicationError Temporal retries only when it helps."""
    status = response.status_code
    if 200 <= status < 300:
        return
    request = response.request
    path = _WEBHOOK_TOKEN.sub(r"\1***", request.url.path)
    api_message = error_message(response)
    message = f"{service} {request.method} {path} -> {status}: {api_message}"
    details = {
        "status_code": status,
        "method": request.method,
        "path": path,
        "api_message": api_message,
    }
    if status == 429 or _github_rate_limited(response, api_message):
        kind = "RateLimited"
    elif status == 408 or status >= 500:
        kind = "Unavailable"
    else:
        kind = _reason(status)
        raise ApplicationError(message, details, type=f"{service}{kind}", non_retryable=True)
    delay = retry_delay(response)
    if delay is None and kind == "RateLimited" and service == "GitHub":
        delay = GITHUB_SECONDARY_WAIT  # GitHub's advice when a limit names no time
    raise ApplicationError(message, details, type=f"{service}{kind}", next_retry_delay=delay)


def _reason(status: int) -> str:
    """CamelCase reason for a status: 404 -> NotFound, 422 -> ValidationFailed."""
    if status in _REASONS:
        return _REASONS[status]
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        return f"Status{status}"
    return "".join(word.capitalize() for word in phrase.replace("-", " ").split() if word.isalnum())


def _github_rate_limited(response: httpx.Response, api_message: str) -> bool:
    """A 403 that is a rate limit: GitHub's exhausted primary limit or any secondary limit."""
    if response.status_code != 403:
        return False
    headers = response.headers
    return (
        headers.get("x-ratelimit-remaining") == "0"
        or "retry-after" in headers
        or "rate limit" in api_message.lower()
    )


def retry_delay(response: httpx.Response) -> timedelta | None:
    """The wait the server asked for: Retry-After, Discord's retry_after or GitHub's reset."""
    seconds: float | None = None
    header = response.headers.get("retry-after", "").strip()
    body = _json(response)
    reset = response.headers.get("x-ratelimit-reset", "")
    if header:
        try:
            seconds = float(header)
        except ValueError:
            try:
                seconds = parsedate_to_datetime(header).timestamp() - time.time()
            except (TypeError, ValueError):
                seconds = None
    elif isinstance(body, dict) and isinstance(body.get("retry_after"), int | float):
        seconds = float(body["retry_after"])
    elif reset.isdigit() and response.headers.get("x-ratelimit-remaining") == "0":
        seconds = int(reset) - time.time()
    return None if seconds is None else timedelta(seconds=max(seconds, 0.0))


def error_message(response: httpx.Response) -> str:
    """The API's own words: Jira errorMessages/errors, GitHub and Discord message/errors."""
    body = _json(response)
    if not isinstance(body, dict):
        return response.text.strip()[:500] or response.reason_phrase
    parts: list[str] = []
    if isinstance(body.get("message"), str):
        code = body.get("code")
        parts.append(
            f"{body['message']} (code {code})" if isinstance(code, int) else body["message"]
        )
    parts.extend(str(m) for m in body.get("errorMessages") or [])
    parts.extend(_flatten_errors(body.get("errors")))
    return "; ".join(parts) or response.text.strip()[:500] or response.reason_phrase


def _flatten_errors(errors: Any, path: str = "") -> list[str]:
    """GitHub's error list, Jira's field map and Discord's nested form errors as lines."""
    if isinstance(errors, list):
        lines = []
        for item in errors:
            if isinstance(item, dict):
                where = ".".join(str(item[k]) for k in ("resource", "field") if item.get(k))
                lines.append(
                    item.get("message") or f"{where} {item.get('code', 'invalid')}".strip()
                )
            else:
                lines.append(str(item))
        return lines
    if not isinstance(errors, dict):
        return []
    lines = []
    for key, value in errors.items():
        if key == "_errors" and isinstance(value, list):
            lines.extend(f"{path}: {e.get('message', e)}" if path else str(e) for e in value)
        elif isinstance(value, dict | list):
            lines.extend(_flatten_errors(value, f"{path}.{key}" if path else str(key)))
        else:
            lines.append(f"{path}.{key}: {value}" if path else f"{key}: {value}")
    return lines


def _json(response: httpx.Response) -> Any:
    """The body as JSON, or None when it is not JSON."""
    try:
        return response.json()
    except ValueError:
        return None
