"""GitHub's documented example deliveries read into the signals a ticket acts on."""

import pytest

from tests.webhooks.payloads import github_example
from webhooks.github_events import GitHubEvent, read_event, ticket_key
from workflows.review.messages import CheckInput, CommentKind, ReviewFeedbackInput

HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
BOT = "ticketsmith-bot"
PULL_2 = {"url": "https://api.github.com/repos/Codertocat/Hello-World/pulls/2"}


def read(event: str, action: str | None, nth: int = 0, **changes: object) -> GitHubEvent | str:
    payload = github_example(event, action, nth)
    payload.update(changes)
    return read_event(event, payload, BOT)


def test_a_failed_check_run_names_its_head_and_branch() -> None:
    event = read("check_run", "completed")  # GitHub's first completed run failed
    assert isinstance(event, GitHubEvent) and isinstance(event.payload, CheckInput)
    assert event.signal == "check_completed"
    assert (event.payload.name, event.payload.head_sha) == ("Octocoders-linter", HEAD)
    assert (event.payload.conclusion, event.payload.check_run_id) == ("failure", 128620228)
    assert event.branches == ["changes"]  # the pull request's head and the suite's, once


def test_a_check_run_still_running_is_not_acted_on() -> None:
    assert read("check_run", "created") == (
        "the check run has not completed ('created', status 'queued', conclusion None)"
    )


@pytest.mark.parametrize(
    ("event", "action", "nth", "sha", "conclusion"),
    [
        ("check_suite", "completed", 0, HEAD, "success"),
        ("workflow_run", "completed", 2, "3484a3fb816e0859fd6e1cea078d76385ff50625", "success"),
        ("status", None, 0, "6113728f27ae82c7b1a177c8d03f9e96e0adf246", "success"),
    ],
)
def test_every_ci_event_becomes_a_check(
    event: str, action: str | None, nth: int, sha: str, conclusion: str
) -> None:
    found = read(event, action, nth)
    assert isinstance(found, GitHubEvent) and isinstance(found.payload, CheckInput)
    assert found.payload.head_sha == sha and found.payload.conclusion == conclusion
    assert "changes" in found.branches


def test_a_workflow_run_carries_its_id_for_the_job_logs_and_its_title_as_name() -> None:
    found = read("workflow_run", "completed", 2)
    assert isinstance(found, GitHubEvent) and isinstance(found.payload, CheckInput)
    assert found.payload.workflow_run_id == 289782451
    assert found.payload.name == "ci(action): update actions/setup-node digest to 8c91899"


def test_a_workflow_run_completed_without_a_conclusion_is_not_acted_on() -> None:
    assert read("workflow_run", "completed", 0) == (  # GitHub's example: still queued
        "the workflow run has not completed ('completed', status 'queued', conclusion None)"
    )


def test_an_errored_status_is_a_failure_and_pending_is_not_acted_on() -> None:
    errored = read("status", None, state="error", description="boom")
    assert isinstance(errored, GitHubEvent) and isinstance(errored.payload, CheckInput)
    assert errored.payload.conclusion == "failure" and errored.payload.description == "boom"
    assert read("status", None, state="pending") == "the commit status is still pending"


def test_pull_request_closed_and_synchronize() -> None:
    closed = read("pull_request", "closed")
    assert isinstance(closed, GitHubEvent)
    assert closed.payload.model_dump(include={"action", "merged"}) == {
        "action": "closed",
        "merged": False,  # GitHub's examples close without merging
    }
    pushed = read("pull_request", "synchronize")
    assert isinstance(pushed, GitHubEvent)
    assert pushed.payload.model_dump(include={"action", "head_sha", "before", "sender"}) == {
        "action": "synchronize",
        "head_sha": HEAD,
        "before": "f95f852bd8fca8fcc58a9a2d6c842781e32a215e",  # the example's previous head
        "sender": "Codertocat",
    }
    assert (
        read("pull_request", "labeled") == "pull_request 'labeled' changes nothing for ticketsmith"
    )


def test_a_pull_request_from_a_fork_is_no_tickets() -> None:
    payload = github_example("pull_request", "synchronize")
    payload["pull_request"]["head"]["repo"]["full_name"] = "mallory/Hello-World"
    assert read_event("pull_request", payload, BOT) == (
        "the pull request's head is in mallory/Hello-World, not Codertocat/Hello-World: no ticket's"
    )


def test_reviews_act_on_changes_requested_or_a_commented_body() -> None:
    empty = read("pull_request_review", "submitted")
    assert empty == "a commented review without a request to act on"  # GitHub's has no body
    payload = github_example("pull_request_review", "submitted")
    payload["review"].update(state="changes_requested", body="Please add tests")
    event = read_event("pull_request_review", payload, BOT)
    assert isinstance(event, GitHubEvent) and isinstance(event.payload, ReviewFeedbackInput)
    assert event.payload.state == "changes_requested"
    assert event.payload.comments[0].kind == CommentKind.REVIEW
    assert (event.association, event.author, event.pr_number) == ("OWNER", "Codertocat", 2)
    assert event.bot is False


def test_an_inline_comment_keeps_its_path_line_and_thread() -> None:
    event = read("pull_request_review_comment", "created", 1)
    assert isinstance(event, GitHubEvent) and isinstance(event.payload, ReviewFeedbackInput)
    comment = event.payload.comments[0]
    assert (comment.path, comment.line, comment.thread_id) == ("README.md", 265, 284312630)
    assert comment.body == "Maybe you should use more emoji on this line."


def test_a_comment_by_a_bot_says_so() -> None:
    payload = github_example("pull_request_review_comment", "created", 1)
    payload["comment"]["user"].update(login="lint-bot[bot]", type="Bot")
    event = read_event("pull_request_review_comment", payload, BOT)
    assert isinstance(event, GitHubEvent) and (event.author, event.bot) == ("lint-bot[bot]", True)


def test_conversation_comments_count_only_on_a_pull_request_addressed_to_the_bot() -> None:
    assert read("issue_comment", "created") == "a comment on an issue, not on a pull request"
    plain = read("issue_comment", "created", issue={"number": 2, "pull_request": PULL_2})
    assert plain == "the comment is not addressed to @ticketsmith-bot or /ticketsmith"
    for body in ("@ticketsmith-bot please rename it", "/ticketsmith rename it"):
        payload = github_example("issue_comment", "created")
        payload["issue"]["pull_request"] = PULL_2
        payload["comment"]["body"] = body
        event = read_event("issue_comment", payload, BOT)
        assert isinstance(event, GitHubEvent) and event.branches == [] and event.pr_number == 1


def test_ticket_branches_name_their_ticket() -> None:
    assert ticket_key("ticketsmith/DEMO-1-add-power") == "DEMO-1"
    assert ticket_key("ticketsmith/DEMO-12") == "DEMO-12"
    assert ticket_key("changes") is None and ticket_key("feature/DEMO-1") is None


def test_a_push_to_a_base_branch_moves_the_base() -> None:
    assert read("push", None, 1) == "a push that moves no branch"  # a tag deleted
    moved = read("push", None, 4)  # master created
    assert isinstance(moved, GitHubEvent) and moved.signal == "base_branch_moved"
    assert moved.payload.model_dump(include={"base", "sha"}) == {
        "base": "master",
        "sha": "6113728f27ae82c7b1a177c8d03f9e96e0adf246",
    }
    on_ticket = read("push", None, 4, ref="refs/heads/ticketsmith/DEMO-1-x")
    assert on_ticket == "a push to a ticket branch (pull_request synchronize says it)"


@pytest.mark.parametrize(
    ("events", "reason"),
    [
        (["*"], "ping: hook 7 sends every event ticketsmith reads"),
        (
            ["check_run", "issue_comment", "pull_request", "pull_request_review", "push"],
            "ping: hook 7 does not send check_suite, pull_request_review_comment, status, "
            "workflow_run: select them in its settings",
        ),
    ],
)
def test_a_ping_says_which_events_the_hook_still_has_to_send(
    events: list[str], reason: str
) -> None:
    payload = github_example("ping", None)
    payload.update(hook_id=7, hook={**payload["hook"], "events": events})
    assert read_event("ping", payload, BOT) == reason
