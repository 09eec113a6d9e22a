"""Request bodies read ahead of the app (for a request log) and replayed to it."""

import json
from typing import Any

from starlette.types import Message, Receive, Scope


async def buffer_json_body(scope: Scope, receive: Receive) -> tuple[Any, Receive]:
    """Read a JSON body ahead (for the log) and hand the app a receive that replays it."""
    headers = dict(scope["headers"])
    if scope["method"] not in ("POST", "PUT", "PATCH") or b"json" not in headers.get(
        b"content-type", b""
    ):
        return None, receive
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if message["type"] != "http.request" or not message.get("more_body"):
            break
    raw = b"".join(chunks)
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if replayed:
            return await receive()
        replayed = True
        return {"type": "http.request", "body": raw, "more_body": False}

    try:
        return json.loads(raw), replay
    except ValueError:
        return raw.decode(errors="replace"), replay
