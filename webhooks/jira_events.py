"""Jira webhook payloads read into the events ticketsmith acts on: comments and labels added."""

from typing import Any

from pydantic import BaseModel

from integrations.jira.adf import adf_to_markdown
from integrations.jira.wiki import wiki_to_markdown


class MalformedEvent(ValueError):
    """A payload that is not shaped like Jira's; the message says what is missing."""


class CommentEvent(BaseModel):
    """A comment was added to an issue; its text as markdown."""

    issue_key: str
    comment_id: str
    text: str
    author_ids: list[str]
    author_name: str


class LabelsAdded(BaseModel):
    """Labels were added to an issue."""

    issue_key: str
    summary: str
    labels: list[str]
    # Every label and component the issue has now: they choose the ticket's repository.
    issue_labels: list[str] = []
    components: list[str] = []


def _issue_key(payload: dict[str, Any]) -> str:
    issue = payload.get("issue")
    key = issue.get("key") if isinstance(issue, dict) else None
    if not isinstance(key, str) or not key:
        raise MalformedEvent(f"{payload.get('webhookEvent')} payload needs issue.key")
    return key


def comment_text(body: Any) -> str:
    """Comment text as markdown: Jira webhooks send wiki markup, REST v3 sends ADF."""
    if isinstance(body, dict):
        return adf_to_markdown(body)
    return wiki_to_markdown(body) if isinstance(body, str) else ""


def is_comment_update(payload: dict[str, Any]) -> bool:
    """An `issue_updated` event for a new comment: how Jira Server/DC sends one with its issue."""
    return payload.get("issue_event_type_name") == "issue_commented" and isinstance(
        payload.get("comment"), dict
    )


def read_comment(payload: dict[str, Any]) -> CommentEvent:
    """The comment of a `comment_created` (or `issue_commented` update) payload."""
    key = _issue_key(payload)
    comment = payload.get("comment")
    if not isinstance(comment, dict) or not isinstance(comment.get("body"), str | dict):
        raise MalformedEvent("comment_created payload needs comment.body (text or ADF)")
    author = comment.get("author")
    if not isinstance(author, dict):
        author = {}
    ids = [str(author[k]) for k in ("accountId", "name", "key") if author.get(k)]
    return CommentEvent(
        issue_key=key,
        comment_id=str(comment.get("id") or ""),
        text=comment_text(comment["body"]),
        author_ids=ids,
        author_name=str(author.get("displayName") or (ids[0] if ids else "unknown")),
    )


def read_labels_added(payload: dict[str, Any]) -> LabelsAdded:
    """The labels a `jira:issue_updated` payload's changelog adds (none for other changes)."""
    key = _issue_key(payload)
    changelog = payload.get("changelog") or {}
    items = changelog.get("items") if isinstance(changelog, dict) else None
    if not isinstance(items, list):
        items = []
    added: list[str] = []
    for item in items:
        if not isinstance(item, dict) or "labels" not in (item.get("field"), item.get("fieldId")):
            continue
        before = str(item.get("fromString") or "").split()
        added += [label for label in str(item.get("toString") or "").split() if label not in before]
    return LabelsAdded(
        issue_key=key, summary=_summary(payload, key), labels=added, **_routing(payload)
    )


def read_labels_created(payload: dict[str, Any]) -> LabelsAdded:
    """The labels a `jira:issue_created` payload's issue was created with."""
    key = _issue_key(payload)
    fields = payload["issue"].get("fields")
    labels = fields.get("labels") if isinstance(fields, dict) else None
    found = [str(label) for label in labels] if isinstance(labels, list) else []
    return LabelsAdded(
        issue_key=key, summary=_summary(payload, key), labels=found, **_routing(payload)
    )


def _routing(payload: dict[str, Any]) -> dict[str, list[str]]:
    """The issue's current labels and component names, from the payload's fields."""
    fields = payload["issue"].get("fields")
    fields = fields if isinstance(fields, dict) else {}
    labels = fields.get("labels")
    labels = labels if isinstance(labels, list) else []
    components = fields.get("components")
    components = components if isinstance(components, list) else []
    return {
        "issue_labels": [str(label) for label in labels],
        "components": [str(c["name"]) for c in components if isinstance(c, dict) and c.get("name")],
    }


def _summary(payload: dict[str, Any], key: str) -> str:
    fields = payload["issue"].get("fields")
    summary = fields.get("summary") if isinstance(fields, dict) else None
    return str(summary or key)
