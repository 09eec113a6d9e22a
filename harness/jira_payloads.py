"""Jira webhook payloads shaped as Jira sends them: an issue, a comment on it."""

import itertools
from typing import Any

_comment_ids = itertools.count(20000)


def next_comment_id() -> str:
    """A comment id no other payload of this process has."""
    return str(next(_comment_ids))


def issue_payload(key: str, labels: list[str] | None = None) -> dict[str, Any]:
    """The issue part of a Jira webhook payload."""
    return {
        "id": "10001",
        "self": f"http://jira.test/rest/api/2/issue/{key}",
        "key": key,
        "fields": {
            "summary": "Add a power operation",
            "labels": labels or [],
            "status": {"name": "To Do", "id": "10000"},
            "project": {"id": "10000", "key": key.split("-")[0], "name": "Demo"},
        },
    }


def comment_event(
    key: str,
    body: str | dict[str, Any],
    author: str = "alice-1",
    name: str = "Alice Reporter",
    comment_id: str | None = None,
) -> dict[str, Any]:
    """A `comment_created` payload; a string body is wiki markup, as Jira sends it."""
    created = "2025-01-06T09:30:00.000+0000"
    comment_id = comment_id or next_comment_id()
    user = {"self": "http://jira.test/rest/api/2/user", "accountId": author, "displayName": name}
    return {
        "timestamp": 1736155800000,
        "webhookEvent": "comment_created",
        "comment": {
            "self": f"http://jira.test/rest/api/2/issue/10001/comment/{comment_id}",
            "id": comment_id,
            "author": user,
            "updateAuthor": user,
            "body": body,
            "created": created,
            "updated": created,
            "jsdPublic": True,
        },
        "issue": issue_payload(key),
    }
