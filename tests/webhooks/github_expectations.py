"""What each of GitHub's documented deliveries must become in the webhook app: the signal
and fields of its payload, or the reason it changes nothing; and the deliveries with one
stated change that cover what GitHub's examples lack (a review requesting changes, a comment
to the bot on a pull request, a bot, a fork, a failure).

A ticket owns every pull request on the examples' branch `changes` (moved to BRANCH).
"""

from collections import Counter
from dataclasses import dataclass
from typing import Any

from tests.webhooks.payloads import github_example, github_examples, on_branch, unique_key

KEY = unique_key()
BRANCH = f"ticketsmith/{KEY}-hello"
HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"  # the head of pull request #2 in the examples
NO_TICKET = "no ticket owns this pull request"


@dataclass
class Case:
    """One documented delivery: `event.action.n` is the n-th example of that action."""

    id: str
    event: str
    payload: dict[str, Any]


def documented() -> list[Case]:
    """Every example in the fixture, named by event, action and rank."""
    cases = []
    for event, examples in github_examples().items():
        ranks: Counter[str | None] = Counter()
        for example in examples:
            action = example.get("action")
            name = ".".join(str(p) for p in (event, action, ranks[action]) if p is not None)
            ranks[action] += 1
            cases.append(Case(name, event, example))
    return cases


def check(source: str, conclusion: str, sha: str = HEAD, **fields: Any) -> tuple[str, Any]:
    """A `check_completed` signal with these fields."""
    return "check_completed", {
        "source": source,
        "conclusion": conclusion,
        "head_sha": sha,
        **fields,
    }


def unchanged(action: str) -> str:
    return f"pull_request {action!r} changes nothing for ticketsmith"


def unfinished(kind: str, action: str, status: str, conclusion: str | None) -> str:
    return (
        f"the {kind} has not completed ({action!r}, status {status!r}, conclusion {conclusion!r})"
    )


ON_ISSUE = (
    "a comment on an issue, not on a pull request;"
    ' no project tracks the issues of Codertocat/Hello-World (tracker = "github")'
)
NO_BRANCH = "a push that moves no branch"
EVERY_EVENT = "ping: hook 109948940 sends every event ticketsmith reads"
CHANGED = {"action": "closed", "merged": False, "head_sha": HEAD, "sender": "Codertocat"}
INLINE = {"author": "Codertocat", "state": "commented", "trusted": True}
STATUS_SHA = "6113728f27ae82c7b1a177c8d03f9e96e0adf246"  # on master, changes and gh-pages

# What each documented delivery becomes: the signal and fields of its payload, or the reason
# it changes nothing. A ticket owns every pull request on `changes` (moved to BRANCH).
EXPECTED: dict[str, tuple[str, dict[str, Any]] | str] = {
    "check_run.created.0": unfinished("check run", "created", "queued", None),
    "check_run.completed.0": check("check_run", "failure", check_run_id=128620228),
    "check_run.completed.1": check("check_run", "success", name="Octocoders-linter"),
    "check_run.completed.2": check("check_run", "success", details_url="https://octocoders.io"),
    "check_run.requested_action.0": unfinished(
        "check run", "requested_action", "in_progress", None
    ),
    "check_run.rerequested.0": unfinished("check run", "rerequested", "completed", "neutral"),
    "check_suite.completed.0": check("check_suite", "success", name="octocoders-linter"),
    "check_suite.completed.1": NO_TICKET,  # on main, with no pull request
    "check_suite.completed.2": check("check_suite", "success"),
    "check_suite.completed.3": check("check_suite", "success"),
    "check_suite.requested.0": unfinished("check suite", "requested", "queued", None),
    "check_suite.rerequested.0": unfinished("check suite", "rerequested", "completed", "success"),
    # GitHub's first example says `completed` of a run still queued, without a conclusion.
    "workflow_run.completed.0": unfinished("workflow run", "completed", "queued", None),
    "workflow_run.completed.1": NO_TICKET,  # on master, with no pull request
    "workflow_run.completed.2": check(
        "workflow_run",
        "success",
        "3484a3fb816e0859fd6e1cea078d76385ff50625",
        workflow_run_id=289782451,  # the workflow's name is empty: the run's title names it
        name="ci(action): update actions/setup-node digest to 8c91899",
    ),  # fmt: skip
    "workflow_run.requested.0": unfinished("workflow run", "requested", "queued", None),
    "status.0": check("status", "success", STATUS_SHA, name="default"),
    "status.1": check("status", "success", STATUS_SHA),
    "status.2": NO_TICKET,  # only master has the commit
    "status.3": check("status", "success", STATUS_SHA),
    "pull_request.opened.0": unchanged("opened"),
    "pull_request.assigned.0": unchanged("assigned"),
    "pull_request.closed.0": ("pull_request_changed", CHANGED),
    "pull_request.closed.1": ("pull_request_changed", CHANGED),
    "pull_request.converted_to_draft.0": unchanged("converted_to_draft"),
    "pull_request.labeled.0": unchanged("labeled"),
    "pull_request.locked.0": unchanged("locked"),
    "pull_request.ready_for_review.0": unchanged("ready_for_review"),
    "pull_request.reopened.0": unchanged("reopened"),
    "pull_request.review_request_removed.0": unchanged("review_request_removed"),
    "pull_request.review_requested.0": unchanged("review_requested"),
    "pull_request.synchronize.0": ("pull_request_changed", CHANGED | {"action": "synchronize"}),
    "pull_request.unassigned.0": unchanged("unassigned"),
    "pull_request.unlabeled.0": unchanged("unlabeled"),
    "pull_request.unlocked.0": unchanged("unlocked"),
    "pull_request_review.submitted.0": "a commented review without a request to act on",
    "pull_request_review.dismissed.0": "pull_request_review 'dismissed' is not a new review",
    "pull_request_review.submitted.1": "a commented review without a request to act on",
    "pull_request_review.submitted.2": "a commented review without a request to act on",
    "pull_request_review_comment.created.0": ("review_feedback", INLINE),
    "pull_request_review_comment.created.1": ("review_feedback", INLINE),
    "pull_request_review_comment.created.2": ("review_feedback", INLINE),
    "pull_request_review_comment.deleted.0": (
        "pull_request_review_comment 'deleted' is not a new comment"
    ),
    "pull_request_review_comment.edited.0": (
        "pull_request_review_comment 'edited' is not a new comment"
    ),
    "issue_comment.created.0": ON_ISSUE,
    "issue_comment.created.1": ON_ISSUE,
    "issue_comment.created.2": ON_ISSUE,
    "issue_comment.created.3": ON_ISSUE,
    "issue_comment.created.4": ON_ISSUE,
    "issue_comment.deleted.0": "issue_comment 'deleted' is not a new comment",
    "issue_comment.edited.0": "issue_comment 'edited' is not a new comment",
    "push.0": NO_BRANCH,  # a tag
    "push.1": NO_BRANCH,  # a tag deleted
    "push.2": NO_BRANCH,
    "push.3": NO_BRANCH,
    "push.4": "master of Codertocat/Hello-World is no configured project's base",
    "push.5": "master of Codertocat/Hello-World is no configured project's base",
    "push.6": NO_BRANCH,
    "ping.0": EVERY_EVENT,
    "ping.1": EVERY_EVENT,
    "ping.2": EVERY_EVENT,
    "ping.3": (  # an organization's hook for other events
        "ping: hook 109948940 does not send check_run, check_suite, issue_comment, pull_request, "
        "pull_request_review, pull_request_review_comment, push, status, workflow_run: "
        "select them in its settings"
    ),
}


def changed(event: str, action: str | None, nth: int, **paths: Any) -> dict[str, Any]:
    """A documented delivery with the values at some paths (`review__state`) replaced."""
    payload = on_branch(github_example(event, action, nth), BRANCH)
    for path, value in paths.items():
        *parents, last = path.split("__")
        target = payload
        for part in parents:
            target = target[part]
        target[last] = value
    return payload


ON_PULL_2 = {
    "url": "https://api.github.com/repos/Codertocat/Hello-World/pulls/2",
    "html_url": "https://github.com/Codertocat/Hello-World/pull/2",
    "diff_url": "https://github.com/Codertocat/Hello-World/pull/2.diff",
    "patch_url": "https://github.com/Codertocat/Hello-World/pull/2.patch",
    "merged_at": None,
}
BOT_USER = {"login": "lint-bot[bot]", "id": 1, "type": "Bot", "site_admin": False}
# Documented deliveries with one stated change each, for the cases GitHub's examples lack.
VARIANTS: dict[str, tuple[str, dict[str, Any], tuple[str, dict[str, Any]] | str]] = {
    "review requesting changes": (
        "pull_request_review",
        changed(
            "pull_request_review",
            "submitted",
            1,
            review__state="changes_requested",
            review__body="Please add tests",
        ),
        (
            "review_feedback",
            {"state": "changes_requested", "author": "Codertocat", "trusted": True},
        ),
    ),  # fmt: skip
    "review by an outsider": (
        "pull_request_review",
        changed(
            "pull_request_review",
            "submitted",
            1,
            review__body="Use tabs",
            review__author_association="FIRST_TIME_CONTRIBUTOR",
        ),
        ("review_feedback", {"state": "commented", "trusted": False}),
    ),  # fmt: skip
    "conversation comment to the bot": (
        "issue_comment",
        changed(
            "issue_comment",
            "created",
            0,
            issue__pull_request=ON_PULL_2,
            comment__body="@ticketsmith-bot please rename it",
        ),
        ("review_feedback", {"author": "Codertocat", "trusted": True}),
    ),  # fmt: skip
    "conversation comment to someone else": (
        "issue_comment",
        changed("issue_comment", "created", 0, issue__pull_request=ON_PULL_2),
        "the comment is not addressed to @ticketsmith-bot or /ticketsmith",
    ),
    "inline comment by a bot": (
        "pull_request_review_comment",
        changed(
            "pull_request_review_comment",
            "created",
            1,
            comment__user=BOT_USER,
            comment__author_association="NONE",
        ),
        "lint-bot[bot] is a bot: bots start no rounds unless review_allow names them",
    ),  # fmt: skip
    "closed from a deleted fork": (
        "pull_request",
        changed("pull_request", "closed", 0, pull_request__head__repo=None),
        "the pull request's head is in a deleted fork, not Codertocat/Hello-World: no ticket's",
    ),
    "failed workflow run": (
        "workflow_run",
        changed("workflow_run", "completed", 2, workflow_run__conclusion="failure"),
        ("check_completed", {"conclusion": "failure", "workflow_run_id": 289782451}),
    ),
    "errored status": (
        "status",
        changed("status", None, 0, state="error", description="crashed"),
        check("status", "failure", STATUS_SHA, description="crashed"),
    ),
    "pending status": (
        "status",
        changed("status", None, 0, state="pending"),
        "the commit status is still pending",
    ),
}
