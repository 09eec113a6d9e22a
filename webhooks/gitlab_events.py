"""GitLab webhook payloads read into what a ticket acts on: merge request changes, pipelines,
notes and pushes (GitLab's "Webhook events" shapes).

Each reader returns the signal to send and the branch that names the ticket, or the reason the
delivery changes nothing. Payload text stays data: it is only carried, never obeyed.
"""

import re
from dataclasses import dataclass, field
from typing import Any

from webhooks.github_events import COMMAND, SignalInput
from webhooks.ticket_routing import ticket_key
from workflows.review.messages import (
    BaseMovedInput,
    CheckInput,
    CommentKind,
    PullRequestChangeInput,
    ReviewComment,
    ReviewFeedbackInput,
)

# A pipeline's final statuses, as the conclusions the review phase reads.
CONCLUSIONS = {"success": "success", "failed": "failure", "canceled": "cancelled"}
NO_COMMIT = "0" * 40
# GitLab's bot users (project and group access tokens) are named `project_<id>_bot_<hash>`.
BOT_USER = re.compile(r"^(?:project|group)_\d+_bot(?:_\w+)?$")
MERGE_ACTIONS = {"merge": True, "close": False}


@dataclass
class GitLabEvent:
    """A delivery that may reach a ticket: the signal, and how to find the ticket."""

    signal: str
    payload: SignalInput
    branches: list[str] = field(default_factory=list)
    author: str | None = None
    author_id: int | None = None  # whose project membership decides whether they are heard
    bot: bool = False


def sender(payload: dict[str, Any]) -> str:
    """Who caused the event (`user` on most hooks, `user_username` on pushes)."""
    user = payload.get("user") or {}
    return str(user.get("username") or payload.get("user_username") or "unknown")


def mention_pattern(bot_username: str) -> re.Pattern[str]:
    """An @ mention of the bot's GitLab username."""
    return re.compile(rf"@{re.escape(bot_username)}(?![\w.-])", re.IGNORECASE)


def read_gitlab_event(event: str, payload: dict[str, Any], bot_username: str) -> GitLabEvent | str:
    """The event to act on, or why there is nothing to do."""
    if event == "Note Hook":
        return _note(payload, bot_username)
    reader = READERS.get(event)
    if reader is None:
        return f"event {event!r} is not one ticketsmith acts on"
    return reader(payload)


def _from_fork(attrs: dict[str, Any]) -> str | None:
    source, target = attrs.get("source_project_id"), attrs.get("target_project_id")
    if source is None or target is None or source == target:
        return None
    return f"the merge request's source is project {source}, not {target}: no ticket's branch"


def _merge_request(payload: dict[str, Any]) -> GitLabEvent | str:
    attrs = payload.get("object_attributes") or {}
    action = attrs.get("action")
    head = str((attrs.get("last_commit") or {}).get("id") or "")
    if action in MERGE_ACTIONS:
        change = PullRequestChangeInput(
            action="closed", merged=MERGE_ACTIONS[action], head_sha=head, sender=sender(payload)
        )
    elif action == "update" and attrs.get("oldrev"):
        change = PullRequestChangeInput(
            action="synchronize", head_sha=head, before=str(attrs["oldrev"]),
            sender=sender(payload),
        )  # fmt: skip
    else:
        return f"merge request {action!r} changes nothing for ticketsmith"
    if why := _from_fork(attrs):
        return why
    return GitLabEvent("pull_request_changed", change, [str(attrs["source_branch"])])


def _pipeline(payload: dict[str, Any]) -> GitLabEvent | str:
    attrs = payload.get("object_attributes") or {}
    status = str(attrs.get("status"))
    if status not in CONCLUSIONS:
        return f"the pipeline is {status}, not finished"
    if attrs.get("tag"):
        return "a tag's pipeline"
    request = payload.get("merge_request") or {}
    branches = [b for b in (request.get("source_branch"), attrs.get("ref")) if b]
    check = CheckInput(
        source="pipeline", name="pipeline", head_sha=str(attrs["sha"]),
        conclusion=CONCLUSIONS[status], pipeline_id=int(attrs["id"]),
        details_url=attrs.get("url"),
    )  # fmt: skip
    return GitLabEvent("check_completed", check, [str(b) for b in branches])


def _note(payload: dict[str, Any], bot_username: str) -> GitLabEvent | str:
    attrs, request = payload.get("object_attributes") or {}, payload.get("merge_request") or {}
    if attrs.get("noteable_type") != "MergeRequest":
        return f"the note is on {attrs.get('noteable_type')!r}, not on a merge request"
    if attrs.get("system"):
        return "a system note"
    if attrs.get("action") == "update":
        return "an edited note: only new notes are heard"
    if why := _from_fork(request):
        return why
    body, user = str(attrs.get("note") or ""), payload.get("user") or {}
    author = sender(payload)
    position = attrs.get("position") or {}
    if attrs.get("type") == "DiffNote" and position:
        comment = ReviewComment(
            id=int(attrs["id"]), kind=CommentKind.INLINE, body=body, author=author,
            path=position.get("new_path") or position.get("old_path"),
            line=position.get("new_line") or position.get("old_line"),
            discussion_id=attrs.get("discussion_id"),
        )  # fmt: skip
    elif mention_pattern(bot_username).search(body) or COMMAND.search(body):
        comment = ReviewComment(
            id=int(attrs["id"]), kind=CommentKind.CONVERSATION, body=body, author=author
        )
    else:
        return f"the note is not addressed to @{bot_username} or /ticketsmith"
    feedback = ReviewFeedbackInput(comments=[comment], author=author)
    return GitLabEvent(
        "review_feedback", feedback, [str(request["source_branch"])], author,
        user.get("id"), bool(BOT_USER.match(author)),
    )  # fmt: skip


def _push(payload: dict[str, Any]) -> GitLabEvent | str:
    ref, after = str(payload.get("ref") or ""), str(payload.get("after") or NO_COMMIT)
    if not ref.startswith("refs/heads/") or after == NO_COMMIT:
        return "a push that moves no branch"
    branch = ref.removeprefix("refs/heads/")
    if ticket_key(branch):
        return "a push to a ticket branch (the merge request's update says it)"
    return GitLabEvent("base_branch_moved", BaseMovedInput(base=branch, sha=after), [])


READERS: dict[str, Any] = {
    "Merge Request Hook": _merge_request,
    "Pipeline Hook": _pipeline,
    "Push Hook": _push,
}
