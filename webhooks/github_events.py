"""GitHub webhook payloads read into what a ticket acts on: checks, reviews, comments, pushes.

Each reader returns the signal to send and the branch that names the ticket, or the reason
the delivery changes nothing. Payload text stays data: it is only carried, never obeyed.
"""

import re
from dataclasses import dataclass, field
from typing import Any

from webhooks.ticket_routing import ticket_key
from workflows.review.messages import (
    BaseMovedInput,
    CheckInput,
    CommentKind,
    PullRequestChangeInput,
    ReviewComment,
    ReviewFeedbackInput,
)

FAILED = {"failure", "timed_out"}
STATUS_FAILED = {"failure", "error"}
COMMAND = re.compile(r"(^|\s)/ticketsmith\b", re.IGNORECASE)

SignalInput = CheckInput | ReviewFeedbackInput | PullRequestChangeInput | BaseMovedInput


@dataclass
class GitHubEvent:
    """A delivery that may reach a ticket: the signal, and how to find the ticket."""

    signal: str
    payload: SignalInput
    branches: list[str] = field(default_factory=list)  # candidate head branches
    pr_number: int | None = None  # when no branch is in the payload (issue comments)
    association: str | None = None  # the comment author's relation to the repository
    author: str | None = None
    bot: bool = False  # the comment's author is a GitHub App or another bot account


def _login(user: Any) -> str:
    return str(user.get("login")) if isinstance(user, dict) and user.get("login") else "unknown"


def _is_bot(user: Any) -> bool:
    return isinstance(user, dict) and user.get("type") == "Bot"


def _branches(pulls: Any, head_branch: Any) -> list[str]:
    """The head branches of the pull requests a CI event names, then its own head branch.

    `pull_requests` is empty for forks and for commits no open pull request has at its head.
    """
    refs = [p["head"]["ref"] for p in pulls or [] if isinstance(p, dict) and p.get("head")]
    return list(dict.fromkeys(str(b) for b in [*refs, head_branch] if b))


def _not_finished(kind: str, action: Any, item: dict[str, Any]) -> str | None:
    """Why a CI event is no result yet: not `completed`, or no conclusion to act on."""
    status, conclusion = item.get("status"), item.get("conclusion")
    if action == "completed" and status == "completed" and conclusion:
        return None
    return (
        f"the {kind} has not completed ({action!r}, status {status!r}, conclusion {conclusion!r})"
    )


def read_event(event: str, payload: dict[str, Any], bot_login: str) -> GitHubEvent | str:
    """The event to act on, or why there is nothing to do."""
    if event == "issue_comment":
        return _issue_comment(payload, bot_login)
    if event == "ping":
        return _ping(payload)
    reader = READERS.get(event)
    if reader is None:
        return f"event {event!r} is not one ticketsmith acts on"
    return reader(payload)


def _check_run(payload: dict[str, Any]) -> GitHubEvent | str:
    run = payload.get("check_run") or {}
    if why := _not_finished("check run", payload.get("action"), run):
        return why
    suite = run.get("check_suite") or {}
    check = CheckInput(
        source="check_run", name=str(run.get("name")), head_sha=str(run["head_sha"]),
        conclusion=str(run.get("conclusion")), check_run_id=run.get("id"),
        details_url=run.get("details_url") or run.get("html_url"),
    )  # fmt: skip
    branches = _branches(run.get("pull_requests"), suite.get("head_branch"))
    return GitHubEvent("check_completed", check, branches)


def _check_suite(payload: dict[str, Any]) -> GitHubEvent | str:
    suite = payload.get("check_suite") or {}
    if why := _not_finished("check suite", payload.get("action"), suite):
        return why
    app = (suite.get("app") or {}).get("name") or "check suite"
    check = CheckInput(
        source="check_suite", name=str(app), head_sha=str(suite["head_sha"]),
        conclusion=str(suite.get("conclusion")),
    )  # fmt: skip
    branches = _branches(suite.get("pull_requests"), suite.get("head_branch"))
    return GitHubEvent("check_completed", check, branches)


def _workflow_run(payload: dict[str, Any]) -> GitHubEvent | str:
    run = payload.get("workflow_run") or {}
    if why := _not_finished("workflow run", payload.get("action"), run):
        return why
    # `name` is the workflow's name, which can be empty; the run's title is then the best name.
    name = run.get("name") or run.get("display_title") or f"workflow {run.get('workflow_id')}"
    check = CheckInput(
        source="workflow_run", name=str(name), head_sha=str(run["head_sha"]),
        conclusion=str(run.get("conclusion")), workflow_run_id=run.get("id"),
        details_url=run.get("html_url"),
    )  # fmt: skip
    return GitHubEvent(
        "check_completed", check, _branches(run.get("pull_requests"), run.get("head_branch"))
    )


def _status(payload: dict[str, Any]) -> GitHubEvent | str:
    state = str(payload.get("state"))
    if state == "pending":
        return "the commit status is still pending"
    conclusion = "failure" if state in STATUS_FAILED else state
    branches = [str(b["name"]) for b in payload.get("branches") or [] if isinstance(b, dict)]
    check = CheckInput(
        source="status", name=str(payload.get("context")), head_sha=str(payload["sha"]),
        conclusion=conclusion, details_url=payload.get("target_url"),
        description=str(payload.get("description") or ""),
    )  # fmt: skip
    return GitHubEvent("check_completed", check, branches)


def _from_fork(payload: dict[str, Any], pr: dict[str, Any]) -> str | None:
    """Why a pull request's head is no ticket's branch: it lives in another repository."""
    head = pr.get("head") or {}
    if "repo" not in head:
        return None
    repo = (head.get("repo") or {}).get("full_name")  # null once the fork is deleted
    own = (payload.get("repository") or {}).get("full_name")
    if repo and own and str(repo).casefold() == str(own).casefold():
        return None
    return f"the pull request's head is in {repo or 'a deleted fork'}, not {own}: no ticket's"


def _pull_request(payload: dict[str, Any]) -> GitHubEvent | str:
    action, pr = payload.get("action"), payload.get("pull_request") or {}
    if action not in ("closed", "synchronize"):
        return f"pull_request {action!r} changes nothing for ticketsmith"
    if why := _from_fork(payload, pr):
        return why
    change = PullRequestChangeInput(
        action=str(action), merged=bool(pr.get("merged")),
        head_sha=str(payload.get("after") or pr["head"]["sha"]),
        before=payload.get("before"),
        sender=_login(payload.get("sender")),
    )  # fmt: skip
    return GitHubEvent("pull_request_changed", change, [str(pr["head"]["ref"])], pr.get("number"))


def _review(payload: dict[str, Any]) -> GitHubEvent | str:
    review, pr = payload.get("review") or {}, payload.get("pull_request") or {}
    state, body = str(review.get("state") or "").lower(), str(review.get("body") or "")
    if payload.get("action") != "submitted":
        return f"pull_request_review {payload.get('action')!r} is not a new review"
    if state != "changes_requested" and not (state == "commented" and body.strip()):
        return f"a {state} review without a request to act on"
    if why := _from_fork(payload, pr):
        return why
    author = _login(review.get("user"))
    comment = ReviewComment(id=int(review["id"]), kind=CommentKind.REVIEW, body=body, author=author)
    feedback = ReviewFeedbackInput(comments=[comment], state=state, author=author)
    return GitHubEvent(
        "review_feedback", feedback, [str(pr["head"]["ref"])], pr.get("number"),
        review.get("author_association"), author, _is_bot(review.get("user")),
    )  # fmt: skip


def _review_comment(payload: dict[str, Any]) -> GitHubEvent | str:
    raw, pr = payload.get("comment") or {}, payload.get("pull_request") or {}
    if payload.get("action") != "created":
        return f"pull_request_review_comment {payload.get('action')!r} is not a new comment"
    if why := _from_fork(payload, pr):
        return why
    author = _login(raw.get("user"))
    comment = ReviewComment(
        id=int(raw["id"]), kind=CommentKind.INLINE, body=str(raw.get("body") or ""),
        author=author, path=raw.get("path"), line=raw.get("line") or raw.get("original_line"),
        thread_id=raw.get("in_reply_to_id") or raw["id"],
    )  # fmt: skip
    feedback = ReviewFeedbackInput(comments=[comment], author=author)
    return GitHubEvent(
        "review_feedback", feedback, [str(pr["head"]["ref"])], pr.get("number"),
        raw.get("author_association"), author, _is_bot(raw.get("user")),
    )  # fmt: skip


def mention_pattern(bot_login: str) -> re.Pattern[str]:
    """An @ mention of the bot: a GitHub App acts as `name[bot]`; people mention it as @name."""
    name = re.escape(bot_login.removesuffix("[bot]"))
    return re.compile(rf"@{name}(?:\[bot\])?(?![\w-])", re.IGNORECASE)


def mentions(body: str, bot_login: str) -> bool:
    """Whether a comment mentions the bot."""
    return mention_pattern(bot_login).search(body) is not None


def _issue_comment(payload: dict[str, Any], bot_login: str) -> GitHubEvent | str:
    raw, issue = payload.get("comment") or {}, payload.get("issue") or {}
    if payload.get("action") != "created":
        return f"issue_comment {payload.get('action')!r} is not a new comment"
    if not issue.get("pull_request"):
        return "a comment on an issue, not on a pull request"
    body = str(raw.get("body") or "")
    if not (mentions(body, bot_login) or COMMAND.search(body)):
        return f"the comment is not addressed to @{bot_login} or /ticketsmith"
    author = _login(raw.get("user"))
    comment = ReviewComment(
        id=int(raw["id"]), kind=CommentKind.CONVERSATION, body=body, author=author
    )
    feedback = ReviewFeedbackInput(comments=[comment], author=author)
    return GitHubEvent(
        "review_feedback", feedback, [], issue.get("number"), raw.get("author_association"),
        author, _is_bot(raw.get("user")),
    )  # fmt: skip


def _ping(payload: dict[str, Any]) -> str:
    """GitHub's hello when a hook is made: say which events it still has to send."""
    hook = payload.get("hook") or {}
    events = set(hook.get("events") or [])
    missing = [] if "*" in events else sorted((set(READERS) | {"issue_comment"}) - events)
    if not missing:
        return f"ping: hook {payload.get('hook_id')} sends every event ticketsmith reads"
    listed = ", ".join(missing)
    return (
        f"ping: hook {payload.get('hook_id')} does not send {listed}: select them in its settings"
    )


def _push(payload: dict[str, Any]) -> GitHubEvent | str:
    ref = str(payload.get("ref") or "")
    if not ref.startswith("refs/heads/") or payload.get("deleted"):
        return "a push that moves no branch"
    branch = ref.removeprefix("refs/heads/")
    if ticket_key(branch):
        return "a push to a ticket branch (pull_request synchronize says it)"
    moved = BaseMovedInput(base=branch, sha=str(payload["after"]))
    return GitHubEvent("base_branch_moved", moved, [])


READERS: dict[str, Any] = {
    "push": _push,
    "check_run": _check_run,
    "check_suite": _check_suite,
    "workflow_run": _workflow_run,
    "status": _status,
    "pull_request": _pull_request,
    "pull_request_review": _review,
    "pull_request_review_comment": _review_comment,
}
