"""GitLab's documented deliveries read into the signals a ticket acts on."""

from typing import Any

from tests.webhooks.gitlab_payloads import (
    gitlab_example,
    merge_request_on,
    note_on,
    on_project,
    pipeline_on,
)
from webhooks.gitlab_events import GitLabEvent, read_gitlab_event
from workflows.review.messages import (
    BaseMovedInput,
    CheckInput,
    CommentKind,
    PullRequestChangeInput,
    ReviewFeedbackInput,
)

BOT = "ticketsmith-bot"
PATH = "team/app"
BRANCH = "ticketsmith/APP-7-add-power"
HEAD = "da1560886d4f094c3e6c9ef40349f7d38b5d27d7"  # the documented merge request's last commit


def read(event: str, payload: dict[str, Any]) -> GitLabEvent | str:
    return read_gitlab_event(event, payload, BOT)


def feedback(payload: dict[str, Any]) -> ReviewFeedbackInput:
    event = read("Note Hook", payload)
    assert isinstance(event, GitLabEvent), event
    assert event.signal == "review_feedback" and event.branches == [BRANCH]
    assert isinstance(event.payload, ReviewFeedbackInput)
    return event.payload


def test_a_merge_and_a_close_both_close_the_ticket_s_pull_request() -> None:
    for action, merged in (("merge", True), ("close", False)):
        event = read("Merge Request Hook", merge_request_on(BRANCH, PATH, action))
        assert isinstance(event, GitLabEvent) and event.signal == "pull_request_changed"
        change = event.payload
        assert isinstance(change, PullRequestChangeInput)
        assert (change.action, change.merged, change.head_sha) == ("closed", merged, HEAD)
        assert change.sender == "root" and event.branches == [BRANCH]


def test_an_update_that_moves_the_branch_is_a_push_and_other_updates_are_not() -> None:
    pushed = read("Merge Request Hook", merge_request_on(BRANCH, PATH, "update", oldrev="a" * 40))
    assert isinstance(pushed, GitLabEvent) and isinstance(pushed.payload, PullRequestChangeInput)
    assert (pushed.payload.action, pushed.payload.before) == ("synchronize", "a" * 40)
    # The documented example: its draft flag changed, no commit did.
    assert read("Merge Request Hook", merge_request_on(BRANCH, PATH, "update")) == (
        "merge request 'update' changes nothing for ticketsmith"
    )


def test_a_merge_request_from_a_fork_names_no_ticket() -> None:
    forked = gitlab_example("Merge Request Hook")  # GitLab's example: from project 14 into 1
    forked["object_attributes"].update(action="merge", target_project_id=1)
    assert read("Merge Request Hook", forked) == (
        "the merge request's source is project 14, not 1: no ticket's branch"
    )


def test_a_finished_pipeline_is_a_check_of_its_commit_with_its_id() -> None:
    for status, conclusion in (("failed", "failure"), ("success", "success"),
                               ("canceled", "cancelled")):  # fmt: skip
        event = read("Pipeline Hook", pipeline_on(BRANCH, PATH, status))
        assert isinstance(event, GitLabEvent) and isinstance(event.payload, CheckInput)
        check = event.payload
        assert (check.conclusion, check.pipeline_id, check.source) == (conclusion, 31, "pipeline")
        assert check.head_sha == "bcbb5ec396a2c0f828686f14fac9b80b780504f2"
        assert check.details_url == "http://example.com/gitlab-org/gitlab-test/-/pipelines/31"
        assert event.branches == [BRANCH, BRANCH]


def test_a_pipeline_still_running_or_on_a_tag_is_not_acted_on() -> None:
    assert read("Pipeline Hook", pipeline_on(BRANCH, PATH, "running")) == (
        "the pipeline is running, not finished"
    )
    assert (
        read("Pipeline Hook", pipeline_on(BRANCH, PATH, "failed", tag=True)) == "a tag's pipeline"
    )


def test_a_note_is_heard_only_when_it_addresses_the_bot() -> None:
    assert read("Note Hook", note_on(BRANCH, PATH, "This MR needs work.")) == (
        "the note is not addressed to @ticketsmith-bot or /ticketsmith"
    )
    for body in ("@ticketsmith-bot This MR needs work.", "/ticketsmith rename the helper"):
        comment = feedback(note_on(BRANCH, PATH, body)).comments[0]
        assert (comment.kind, comment.body, comment.id) == (CommentKind.CONVERSATION, body, 1244)
    # An address to a longer name is not to the bot.
    assert isinstance(read("Note Hook", note_on(BRANCH, PATH, "@ticketsmith-bot2 hi")), str)


def test_a_diff_note_is_an_inline_comment_on_its_line_and_discussion() -> None:
    position = {"position_type": "text", "new_path": "calc/ops.py", "old_path": "calc/ops.py",
                "new_line": 12, "old_line": None}  # fmt: skip
    payload = note_on(BRANCH, PATH, "Name this `total`.", type="DiffNote", position=position,
                      discussion_id="6a9c1750b37d513a43987b574953fceb50b03ce7")  # fmt: skip
    comment = feedback(payload).comments[0]
    assert (comment.kind, comment.path, comment.line) == (CommentKind.INLINE, "calc/ops.py", 12)
    assert comment.discussion_id == "6a9c1750b37d513a43987b574953fceb50b03ce7"


def test_a_note_s_author_is_checked_and_bots_are_known_by_their_names() -> None:
    payload = note_on(BRANCH, PATH, "@ticketsmith-bot go", author="project_42_bot_4f1e")
    event = read("Note Hook", payload)
    assert isinstance(event, GitLabEvent)
    assert (event.author, event.author_id, event.bot) == ("project_42_bot_4f1e", 1, True)
    person = read("Note Hook", note_on(BRANCH, PATH, "@ticketsmith-bot go"))
    assert isinstance(person, GitLabEvent) and person.bot is False


def test_notes_that_start_nothing_say_why() -> None:
    system = note_on(BRANCH, PATH, "@ticketsmith-bot added 1 commit", system=True)
    assert read("Note Hook", system) == "a system note"
    edited = note_on(BRANCH, PATH, "@ticketsmith-bot go", action="update")
    assert read("Note Hook", edited) == "an edited note: only new notes are heard"
    on_issue = note_on(BRANCH, PATH, "@ticketsmith-bot go", noteable_type="Issue")
    assert read("Note Hook", on_issue) == "the note is on 'Issue', not on a merge request"


def test_a_push_to_a_base_branch_moves_the_base_and_one_to_a_ticket_branch_does_not() -> None:
    push = on_project(gitlab_example("Push Hook"), PATH)
    event = read("Push Hook", push)
    assert isinstance(event, GitLabEvent) and isinstance(event.payload, BaseMovedInput)
    assert (event.payload.base, event.payload.sha) == ("master", HEAD)
    push["ref"] = f"refs/heads/{BRANCH}"
    assert read("Push Hook", push) == (
        "a push to a ticket branch (the merge request's update says it)"
    )
    push.update(ref="refs/heads/master", after="0" * 40)
    assert read("Push Hook", push) == "a push that moves no branch"


def test_events_ticketsmith_does_not_read_say_so() -> None:
    assert read("Wiki Page Hook", {"object_kind": "wiki_page"}) == (
        "event 'Wiki Page Hook' is not one ticketsmith acts on"
    )
