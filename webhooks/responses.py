"""The webhook app's answers and body parsing, shared by its Jira and GitHub routes."""

import json
import logging
from typing import Any
from urllib.parse import parse_qs

from fastapi.responses import JSONResponse

log = logging.getLogger("ticketsmith.webhooks")
SIGNATURE = "signature missing or wrong: sign the raw body with the shared secret (HMAC-SHA256)"


def github_json(body: bytes, content_type: str | None) -> bytes:
    """The JSON of a GitHub delivery: the body, or its `payload` field when form-encoded."""
    if not (content_type or "").lower().startswith("application/x-www-form-urlencoded"):
        return body
    try:
        fields = parse_qs(body.decode("utf-8"), strict_parsing=False)
    except UnicodeDecodeError:
        return body
    return fields.get("payload", [""])[0].encode()


def parse_json(body: bytes) -> tuple[Any, str | None]:
    """The body as JSON, or None and why it is not JSON."""
    try:
        return json.loads(body.decode("utf-8")), None
    except UnicodeDecodeError:
        return None, "body is not UTF-8 text"
    except json.JSONDecodeError as err:
        return None, f"body is not valid JSON: {err}"


def ignored(reason: str, **extra: Any) -> JSONResponse:
    """200: understood, and deliberately nothing to do (logged, so the reason is on record)."""
    log.info("delivery ignored: %s", reason)
    return JSONResponse({"status": "ignored", "reason": reason, **extra})


def error(status: int, message: str) -> JSONResponse:
    """A JSON error saying what was wrong."""
    return JSONResponse({"error": message}, status_code=status)
