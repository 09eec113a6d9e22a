"""GitLab's documented webhook deliveries, moved onto a ticket's project and branch, and sent
with the headers GitLab sends."""

import copy
import functools
import json
import uuid
from pathlib import Path
from typing import Any

from tests.webhooks.payloads import SECRET

EXAMPLES = Path(__file__).parents[1] / "contracts" / "gitlab" / "webhook_examples.json"


@functools.cache
def _examples() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(EXAMPLES.read_text())["examples"]
    return loaded


def gitlab_example(event: str) -> dict[str, Any]:
    """GitLab's documented `event` delivery (`Note Hook`: the comment on a merge request)."""
    return copy.deepcopy(_examples()[event])


def gitlab_request(
    event: str, payload: Any, token: str | None = SECRET, delivery: str | None = None
) -> dict[str, Any]:
    """Arguments for httpx: a GitLab delivery with its X-Gitlab-Token and Idempotency-Key."""
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    key = delivery or str(uuid.uuid4())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "GitLab/17.0.0",
        "X-Gitlab-Event": event,
        "X-Gitlab-Event-UUID": key,
        "Idempotency-Key": key,
    }
    if token is not None:
        headers["X-Gitlab-Token"] = token
    return {"content": body, "headers": headers}


def on_project(payload: dict[str, Any], path: str, project_id: int = 5) -> dict[str, Any]:
    """The delivery moved to project `path` (its merge request no longer from a fork)."""
    payload["project"].update(id=project_id, path_with_namespace=path)
    for request in (payload.get("object_attributes"), payload.get("merge_request")):
        if request and "source_project_id" in request:
            request.update(source_project_id=project_id, target_project_id=project_id)
    return payload


def merge_request_on(branch: str, path: str, action: str, **attrs: Any) -> dict[str, Any]:
    """The documented Merge Request Hook with `action` on `branch` of `path`."""
    payload = on_project(gitlab_example("Merge Request Hook"), path)
    payload["object_attributes"].update(action=action, source_branch=branch, **attrs)
    return payload


def note_on(
    branch: str, path: str, body: str, author: str = "root", **attrs: Any
) -> dict[str, Any]:
    """The documented comment on a merge request whose source is `branch`, saying `body`."""
    payload = on_project(gitlab_example("Note Hook"), path)
    payload["merge_request"]["source_branch"] = branch
    payload["object_attributes"].update(note=body, **attrs)
    payload["user"]["username"] = author
    return payload


def pipeline_on(branch: str, path: str, status: str, **attrs: Any) -> dict[str, Any]:
    """The documented Pipeline Hook, `status`, for the merge request from `branch`."""
    payload = on_project(gitlab_example("Pipeline Hook"), path)
    payload["merge_request"]["source_branch"] = branch
    payload["object_attributes"].update(ref=branch, status=status, **attrs)
    return payload
