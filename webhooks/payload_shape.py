"""Whether a delivery's nested objects are objects, before any route reads them.

A signed delivery can still be malformed (`"sender": "carol"`): read as an object it would be
a server error, which the host answers by delivering it again. Such a payload gets a 400 that
names the field instead.
"""

from typing import Any

# The fields, present in some events and absent in others, that are objects where present.
GITHUB_OBJECTS = (
    "sender", "repository", "issue", "issue.user", "comment", "comment.user", "label",
    "pull_request", "pull_request.head", "pull_request.base", "review", "review.user",
    "check_run", "check_suite", "workflow_run", "workflow_job", "installation",
)  # fmt: skip
GITLAB_OBJECTS = (
    "user", "project", "object_attributes", "merge_request", "repository",
    "object_attributes.last_commit",
)  # fmt: skip


def misshapen(payload: dict[str, Any], fields: tuple[str, ...]) -> str | None:
    """The first dotted field present in the payload that is not a JSON object, or None."""
    for field in fields:
        value: Any = payload
        for part in field.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is not None and not isinstance(value, dict):
            return field
    return None


def shape_error(host: str, event: str, field: str) -> str:
    """What to say of a payload whose `field` is not an object."""
    return f"{event} payload is not shaped like {host}'s: {field} must be an object"
