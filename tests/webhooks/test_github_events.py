"""GitHub's documented example deliveries read into the signals a ticket acts on."""

import pytest

from tests.webhooks.payloads import github_example
from webhooks.github_events import GitHubEvent, read_event, ticket_key
from workflows.review_messages import CheckInput, CommentKind, ReviewFeedbackInput

HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
BOT = "ticketsmith-bot"


def read(event: str, name: str, **changes: object) -> GitHubEvent | str:
    payload = github_example(name)
    payload.update(changes)
    return read_event(event, payload, BOT)


def test_a_failed_check_run_names_its_head_and_branch() -> None:
    payload = github_example("check_run.completed")
    payload["check_run"]["conclusion"] = "failure"  # the example's run succeeded
    event = read_event("check_run", payload, BOT)
    assert isinstance(event, GitHubEvent) and isinstance(event.payload, CheckInput)
    assert event.signal == "check_completed"
    assert (event.payload.name, event.payload.head_sha) == ("Octocoders-linter", HEAD)
    assert (event.payload.conclusion, event.payload.check_run_id) == ("failure", 128620228)
    assert event.branches[0] == "changes"


def test_a_check_run_still_running_is_not_acted_on() -> None:
    payload = github_example("check_run.completed")
    payload["action"], payload["check_run"]["status"] = "created", "in_progress"
    assert read_event("check_run", payload, BOT) == "the check run has not completed"


@pytest.mark.parametrize(
    ("event", "name", "conclusion"),
    [
        ("check_suite", "check_suite.completed", "success"),
        ("workflow_run", "workflow_run.completed", "failure"),
        ("status", "status", "success"),
    ],
)
def test_every_ci_event_becomes_a_check(event: str, name: str, conclusion: str) -> None:
    found = read(event, name)
    assert isinstance(found, GitHubEvent) and isinstance(found.payload, CheckInput)
    assert found.payload.head_sha == HEAD and found.payload.conclusion == conclusion
    assert "changes" in found.branches


def test_a_workflow_run_carries_its_id_for_the_job_logs() -> None:
    found = read("workflow_run", "workflow_run.completed")
    assert isinstance(found, GitHubEvent) and isinstance(found.payload, CheckInput)
    assert found.payload.workflow_run_id == 30433642


def test_an_errored_status_is_a_failure_and_pending_is_not_acted_on() -> None:
    errored = read("status", "status", state="error", description="boom")
    assert isinstance(errored, GitHubEvent) and isinstance(errored.payload, CheckInput)
    assert errored.payload.conclusion == "failure" and errored.payload.description == "boom"
    assert read("status", "status", state="pending") == "the commit status is still pending"


def test_pull_request_closed_merged_and_synchronize() -> None:
    closed = read("pull_request", "pull_request.closed")
    assert isinstance(closed, GitHubEvent)
    assert closed.payload.model_dump(include={"action", "merged"}) == {
        "action": "closed",
        "merged": True,
    }
    pushed = read("pull_request", "pull_request.synchronize")
    assert isinstance(pushed, GitHubEvent)
    assert pushed.payload.model_dump(include={"action", "head_sha", "before", "sender"}) == {
        "action": "synchronize",
        "head_sha": HEAD,
        "before": "6113728f27ae82c7b1a177c8d03f9e96e0adf246",  # the example's previous head
        "sender": "Codertocat",
    }
    assert read("pull_request", "pull_request.synchronize", action="labeled").startswith(
        "pull_request 'labeled'"
    )


def test_reviews_act_on_changes_requested_or_a_commented_body() -> None:
    empty = read("pull_request_review", "pull_request_review.submitted")
    assert empty == "a commented review without a request to act on"  # the example has no body
    payload = github_example("pull_request_review.submitted")
    payload["review"].update(state="changes_requested", body="Please add tests")
    event = read_event("pull_request_review", payload, BOT)
    assert isinstance(event, GitHubEvent) and isinstance(event.payload, ReviewFeedbackInput)
    assert event.payload.state == "changes_requested"
    assert event.payload.comments[0].kind == CommentKind.REVIEW
    assert (event.association, event.author, event.pr_number) == ("OWNER", "Codertocat", 2)


def test_an_inline_comment_keeps_its_path_line_and_thread() -> None:
    event = read("pull_request_review_comment", "pull_request_review_comment.created")
    assert isinstance(event, GitHubEvent) and isinstance(event.payload, ReviewFeedbackInput)
    comment = event.payload.comments[0]
    assert (comment.path, comment.line, comment.thread_id) == ("README.md", 1, 284312630)
    assert comment.body == "Maybe you should use more emojji on this line."


def test_conversation_comments_count_only_when_addressed_to_the_bot() -> None:
    plain = read("issue_comment", "issue_comment.created")
    assert plain == "the comment is not addressed to @ticketsmith-bot or /ticketsmith"
    for body in ("@ticketsmith-bot please rename it", "/ticketsmith rename it"):
        payload = github_example("issue_comment.created")
        payload["comment"]["body"] = body
        event = read_event("issue_comment", payload, BOT)
        assert isinstance(event, GitHubEvent) and event.branches == [] and event.pr_number == 2
    on_issue = github_example("issue_comment.created")
    del on_issue["issue"]["pull_request"]
    on_issue["comment"]["body"] = "/ticketsmith"
    assert read_event("issue_comment", on_issue, BOT) == (
        "a comment on an issue, not on a pull request"
    )


def test_ticket_branches_name_their_ticket() -> None:
    assert ticket_key("ticketsmith/DEMO-1-add-power") == "DEMO-1"
    assert ticket_key("ticketsmith/DEMO-12") == "DEMO-12"
    assert ticket_key("changes") is None and ticket_key("feature/DEMO-1") is None


def test_a_push_to_a_base_branch_moves_the_base() -> None:
    deleted = read("push", "push")  # the example deletes the branch
    assert deleted == "a push that moves no branch"
    moved = read("push", "push", deleted=False, after=HEAD)
    assert isinstance(moved, GitHubEvent) and moved.signal == "base_branch_moved"
    assert moved.payload.model_dump(include={"base", "sha"}) == {"base": "master", "sha": HEAD}
    on_ticket = read("push", "push", deleted=False, ref="refs/heads/ticketsmith/DEMO-1-x")
    assert on_ticket == "a push to a ticket branch (pull_request synchronize says it)"
