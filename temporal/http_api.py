"""Temporal's HTTP API, read with the standard library: how `status`, `list` and `watch` read.

Importing the gRPC client costs more than half a second; these reads need only JSON over HTTP.
Whatever this path cannot read whole (no HTTP API there, an encrypted payload or failure, a
payload kept in the payload store) raises `Unreadable`, and the caller asks again over gRPC.
"""

import base64
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from temporal_settings import TemporalEndpoints
from vocabulary.failure_words import sentence, stopped_in_words

CONNECT_SECONDS = 2.0
RUN_STATE_PREFIX = "WORKFLOW_EXECUTION_STATUS_"
RUNNING = "WORKFLOW_EXECUTION_STATUS_RUNNING"
COMPLETED = "WORKFLOW_EXECUTION_STATUS_COMPLETED"
PLAIN_JSON = b"json/plain"
LATE_CODES = {408, 504}  # the server gave up waiting for a worker
# What the gRPC client says of a run that ended without a failure of its own.
TERMINATED = "Workflow terminated"
TIMED_OUT = "START_TO_CLOSE"  # the gRPC client reads a run's time-out as this kind of timeout


class Unreadable(Exception):
    """The HTTP API cannot answer this read; use the gRPC client."""


class QueryUnanswered(Exception):
    """The server answered, but no worker answered the status query in time."""


class NotStarted(Exception):
    """No workflow has this id."""


def request(
    settings: TemporalEndpoints, path: str, body: bytes | None = None, timeout: float = 0
) -> Any:
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


def describe(settings: TemporalEndpoints, workflow_id: str) -> dict[str, Any]:
    """The workflow's description: its run state and search attributes; `NotStarted` if none."""
    try:
        return request(settings, f"/workflows/{urllib.parse.quote(workflow_id, safe='')}")
    except Unreadable as err:
        cause = err.__cause__
        if isinstance(cause, urllib.error.HTTPError) and cause.code == 404:
            raise NotStarted(workflow_id) from None
        raise


def query(settings: TemporalEndpoints, workflow_id: str, name: str) -> Any:
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


def closing_event(settings: TemporalEndpoints, workflow_id: str) -> dict[str, Any]:
    """The last event of the workflow's latest run: how it closed, once it has."""
    path = f"/workflows/{urllib.parse.quote(workflow_id, safe='')}/history-reverse"
    events = request(settings, path + "?maximumPageSize=1").get("history", {}).get("events", [])
    if not events:
        raise Unreadable(f"{workflow_id} has no history")
    event: dict[str, Any] = events[0]
    return event


def returned(event: dict[str, Any]) -> Any:
    """What a completed run returned, from its closing event."""
    completed = event.get("workflowExecutionCompletedEventAttributes")
    if not completed:
        raise Unreadable("the last event is not the workflow's completion")
    payloads = completed.get("result", {}).get("payloads", [])
    if len(payloads) != 1:
        raise Unreadable("the completion carries no single result")
    return payload_value(payloads[0])


def why_it_closed(event: dict[str, Any]) -> str:
    """Why a run that did not complete closed, in the words the gRPC client's error gives."""
    if failed := event.get("workflowExecutionFailedEventAttributes"):
        return failure_in_words(failed.get("failure") or {})
    if terminated := event.get("workflowExecutionTerminatedEventAttributes"):
        return sentence(terminated.get("reason") or TERMINATED)
    if "workflowExecutionTimedOutEventAttributes" in event:
        return stopped_in_words(None, TIMED_OUT, "")
    if "workflowExecutionCanceledEventAttributes" in event:
        return sentence("Workflow cancelled")
    raise Unreadable(f"the last event does not close the run: {event.get('eventType')}")


def failure_in_words(failure: dict[str, Any]) -> str:
    """A failure, as the API writes it, in words: its innermost cause, naming the step."""
    step = None
    while isinstance(failure.get("cause"), dict):
        if activity := failure.get("activityFailureInfo"):
            step = activity.get("activityType", {}).get("name")
        failure = failure["cause"]
    if failure.get("encodedAttributes"):  # its message is encrypted: the gRPC client decodes it
        raise Unreadable("an encoded failure")
    timeout = failure.get("timeoutFailureInfo", {}).get("timeoutType")
    kind = timeout.removeprefix("TIMEOUT_TYPE_") if isinstance(timeout, str) else None
    return stopped_in_words(step, kind, str(failure.get("message", "")))


def list_runs(
    settings: TemporalEndpoints, visibility_query: str, limit: int = 200
) -> list[dict[str, Any]]:
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


def never_started(key: str) -> str:
    """What to say of a ticket that never ran."""
    return f"{key} has never been started; start it with: starter.py {key}"


def no_worker_answered(key: str, seconds: float, reason: str, phase: str, status: str) -> str:
    """Why a running ticket's status cannot be read, and what to do about it."""
    return (
        f"cannot read the status of {key}: no worker answered its status query within "
        f"{seconds:.0f} s ({reason}). The ticket is still running; its last recorded phase is "
        f"{phase} and its status {status}. A running ticket's status needs a running worker: "
        "is one running (make up starts one; its log is .data/logs/worker.log)? On a busy "
        "machine raise TICKETSMITH_STATUS_QUERY_SECONDS."
    )
