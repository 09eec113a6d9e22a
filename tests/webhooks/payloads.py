"""Real-shaped Jira and GitHub webhook payloads, signed as the services sign them."""

import copy
import functools
import hashlib
import hmac
import json
import random
import uuid
from pathlib import Path
from typing import Any

from harness.jira_payloads import issue_payload, next_comment_id

SECRET = "s3cret"


def unique_key(project: str = "WEB") -> str:
    """A ticket key no other test uses (the Temporal test server lives for the session)."""
    return f"{project}-{random.randrange(10**6, 10**7)}"


def server_comment_events(
    key: str, body: str, author: str = "alice", name: str = "Alice Reporter"
) -> tuple[dict[str, Any], dict[str, Any]]:
    """What Jira Server/DC sends for one comment: `comment_created` without the issue, and
    `jira:issue_updated` (issue_commented) with both."""
    comment_id = next_comment_id()
    user = {"self": "http://jira.test/rest/api/2/user", "name": author, "key": author,
            "displayName": name}  # fmt: skip
    comment = {
        "self": f"http://jira.test/rest/api/2/issue/10001/comment/{comment_id}",
        "id": comment_id,
        "author": user,
        "updateAuthor": user,
        "body": body,
        "created": "2025-01-06T09:30:00.000+0000",
        "updated": "2025-01-06T09:30:00.000+0000",
    }
    created = {"timestamp": 1736155800000, "webhookEvent": "comment_created", "comment": comment}
    updated = {
        "timestamp": 1736155800001,
        "webhookEvent": "jira:issue_updated",
        "issue_event_type_name": "issue_commented",
        "user": user,
        "issue": issue_payload(key),
        "comment": comment,
    }
    return created, updated


def created_event(key: str, labels: list[str]) -> dict[str, Any]:
    """A `jira:issue_created` payload."""
    return {
        "timestamp": 1736155800000,
        "webhookEvent": "jira:issue_created",
        "issue_event_type_name": "issue_created",
        "user": {"accountId": "alice-1", "displayName": "Alice Reporter"},
        "issue": issue_payload(key, labels),
    }


def labels_event(key: str, before: list[str], after: list[str]) -> dict[str, Any]:
    """A `jira:issue_updated` payload whose changelog changes the labels."""
    item = {
        "field": "labels",
        "fieldtype": "jira",
        "fieldId": "labels",
        "from": None,
        "fromString": " ".join(before),
        "to": None,
        "toString": " ".join(after),
    }
    return {
        "timestamp": 1736155800000,
        "webhookEvent": "jira:issue_updated",
        "issue_event_type_name": "issue_updated",
        "user": {"accountId": "alice-1", "displayName": "Alice Reporter"},
        "issue": issue_payload(key, after),
        "changelog": {"id": "10500", "items": [item]},
    }


def sign(body: bytes, secret: str = SECRET) -> str:
    """The `sha256=<hex>` HMAC of a raw body."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def jira_request(
    payload: Any, delivery: str | None = "d-1", secret: str | None = SECRET
) -> dict[str, Any]:
    """Arguments for httpx: the raw body, signed (when a secret is given) like Jira signs it."""
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["X-Hub-Signature"] = sign(body, secret)
    if delivery is not None:
        headers["X-Atlassian-Webhook-Identifier"] = delivery
    return {"content": body, "headers": headers}


def github_request(
    event: str, payload: Any, secret: str | None = SECRET, delivery: str | None = None
) -> dict[str, Any]:
    """Arguments for httpx: a GitHub delivery signed with X-Hub-Signature-256."""
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    headers = {
        "Content-Type": "application/json",
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": delivery or str(uuid.uuid4()),
    }
    if secret is not None:
        headers["X-Hub-Signature-256"] = sign(body, secret)
    return {"content": body, "headers": headers}


GITHUB_EXAMPLES = Path(__file__).parents[1] / "contracts" / "github" / "webhook_examples.json"


@functools.cache
def _github_examples() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(GITHUB_EXAMPLES.read_text())
    return loaded


def github_examples() -> dict[str, list[dict[str, Any]]]:
    """GitHub's documented deliveries by event (see tests/contracts/github/extract_webhooks.py)."""
    return copy.deepcopy(_github_examples()["examples"])


def github_example(event: str, action: str | None = None, nth: int = 0) -> dict[str, Any]:
    """The `nth` of GitHub's documented `event` deliveries (with that `action`), a fresh copy."""
    found = [e for e in github_examples()[event] if action in (None, e.get("action"))]
    return found[nth]


def on_branch(payload: dict[str, Any], branch: str) -> dict[str, Any]:
    """A documented delivery moved from its pull request's branch, `changes`, to `branch`."""
    text = json.dumps(payload)
    for field in ("ref", "head_branch", "name"):
        text = text.replace(f'"{field}": "changes"', f'"{field}": "{branch}"')
    moved: dict[str, Any] = json.loads(text)
    return moved


def pull_on_branch(branch: str) -> dict[str, Any]:
    """GitHub's REST answer for the examples' pull request #2, its head moved to `branch`."""
    pull = github_example("pull_request", "synchronize")["pull_request"]
    pull["head"]["ref"] = branch
    return pull
