"""Temporal's HTTP API, read with the standard library: the quick path of `status` and `list`.

Importing the gRPC client costs more than half a second; these reads need only JSON over HTTP.
Whatever this path cannot read whole (no HTTP API there, an encrypted payload, a run that failed)
raises `Unreadable`, and the caller asks again over gRPC.
"""

import base64
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from config import Settings

CONNECT_SECONDS = 2.0
RUNNING = "WORKFLOW_EXECUTION_STATUS_RUNNING"
COMPLETED = "WORKFLOW_EXECUTION_STATUS_COMPLETED"
PLAIN_JSON = b"json/plain"
LATE_CODES = {408, 504}  # the server gave up waiting for a worker


class Unreadable(Exception):
    """The HTTP API cannot answer this read; use the gRPC client."""


class QueryUnanswered(Exception):
    """The server answered, but no worker answered the status query in time."""


def request(settings: Settings, path: str, body: bytes | None = None, timeout: float = 0) -> Any:
    """One call to the HTTP API of the configured namespace; JSON in, JSON out."""
    if settings.temporal_http_url in ("", "off"):
        raise Unreadable("the HTTP API is switched off")
    namespace = urllib.parse.quote(settings.temporal_namespace, safe="")
    url = f"{settings.temporal_http_url}/api/v1/namespaces/{namespace}{path}"
    # Payloads in full: the written-out (shorthand) form turns empty lists into nulls.
    url += ("&" if "?" in path else "?") + "noPayloadShorthand"
    call = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(call, timeout=timeout or CONNECT_SECONDS) as response:
            return json.loads(response.read())
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise Unreadable(f"{url}: {err}") from err


def describe(settings: Settings, workflow_id: str) -> dict[str, Any]:
    """The workflow's description: its run state and search attributes."""
    return request(settings, f"/workflows/{urllib.parse.quote(workflow_id, safe='')}")


def query(settings: Settings, workflow_id: str, name: str) -> Any:
    """A query's answer from a worker; `QueryUnanswered` when none answers in time."""
    path = f"/workflows/{urllib.parse.quote(workflow_id, safe='')}/query/{name}"
    wait = settings.status_query_seconds
    try:
        answer = request(settings, path, body=b"{}", timeout=wait)
    except Unreadable as err:
        cause = err.__cause__
        late = isinstance(cause, TimeoutError) or "timed out" in str(cause)
        if late or (isinstance(cause, urllib.error.HTTPError) and cause.code in LATE_CODES):
            raise QueryUnanswered(f"no answer within {wait:.0f} s") from err
        raise
    results = answer.get("queryResult", {}).get("payloads")
    if not isinstance(results, list) or len(results) != 1:
        raise Unreadable(f"the query answer has no single result: {str(answer)[:200]}")
    return payload_value(results[0])


def result(settings: Settings, workflow_id: str) -> Any:
    """What a completed workflow returned, from the last event of its history."""
    path = f"/workflows/{urllib.parse.quote(workflow_id, safe='')}/history-reverse"
    events = request(settings, path + "?maximumPageSize=1").get("history", {}).get("events", [])
    completed = events[0].get("workflowExecutionCompletedEventAttributes") if events else None
    if not completed:
        raise Unreadable("the last event is not the workflow's completion")
    payloads = completed.get("result", {}).get("payloads", [])
    if len(payloads) != 1:
        raise Unreadable("the completion carries no single result")
    return payload_value(payloads[0])


def list_runs(settings: Settings, visibility_query: str, limit: int = 200) -> list[dict[str, Any]]:
    """Executions a visibility query finds, newest first, as the API describes them."""
    params = urllib.parse.urlencode({"query": visibility_query, "pageSize": limit})
    return request(settings, f"/workflows?{params}").get("executions", [])[:limit]


def payload_value(payload: Any) -> Any:
    """A payload's JSON value, from its full form: base64 metadata and data."""
    if not isinstance(payload, dict) or "metadata" not in payload:
        raise Unreadable(f"not a payload in full form: {str(payload)[:80]}")
    encoding = base64.b64decode(payload.get("metadata", {}).get("encoding", ""))
    if encoding != PLAIN_JSON:  # encrypted, or stored elsewhere: the gRPC client decodes it
        raise Unreadable(f"a payload encoded as {encoding.decode(errors='replace')!r}")
    return json.loads(base64.b64decode(payload.get("data", "")))


def search_attributes(execution_info: dict[str, Any]) -> dict[str, Any]:
    """The run's search attributes by name, decoded."""
    fields = execution_info.get("searchAttributes", {}).get("indexedFields", {})
    values = {}
    for name, payload in fields.items():
        try:
            values[name] = payload_value(payload)
        except (Unreadable, ValueError):
            continue
    return values


def no_worker_answered(key: str, seconds: float, reason: str, phase: str, status: str) -> str:
    """Why a running ticket's status cannot be read, and what to do about it."""
    return (
        f"cannot read the status of {key}: no worker answered its status query within "
        f"{seconds:.0f} s ({reason}). The ticket is still running; its last recorded phase is "
        f"{phase} and its status {status}. A running ticket's status needs a running worker: "
        "is one running (make up starts one; its log is .data/logs/worker.log)? On a busy "
        "machine raise TICKETSMITH_STATUS_QUERY_SECONDS."
    )
