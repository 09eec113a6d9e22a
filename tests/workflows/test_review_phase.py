"""The review phase on the time-skipping server: the ticket follows its pull request."""

import asyncio
from datetime import timedelta

from temporalio.client import WorkflowHandle
from temporalio.testing import WorkflowEnvironment

from tests.support.notices import check_row
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import (
    DEADLINE_S,
    awaiting,
    running_ticket,
    ticket_input,
    wait_until,
)
from workflows.review.messages import (
    BaseMovedInput,
    CheckInput,
    CommentKind,
    PullRequestChangeInput,
    ReviewComment,
    ReviewFeedbackInput,
)
from workflows.ticket.messages import Phase, Status, TicketInput, TicketResult, TicketStatus
from workflows.ticket.workflow import TicketWorkflow

Handle = WorkflowHandle[TicketWorkflow, TicketResult]
HEAD = "sha2"  # the fakes' second commit: plan, then code


def following(key: str, **review: object) -> TicketInput:
    """A ticket that follows its PR; events act at once (no batch window) unless told."""
    inp = ticket_input(key, follow=True)
    inp.auto = True
    inp.review = inp.review.model_copy(update={"batch_window": timedelta(0), **review})
    return inp


def failed(name: str, sha: str = HEAD, delivery: str | None = None) -> CheckInput:
    return CheckInput(
        source="check_run", name=name, head_sha=sha, conclusion="failure", check_run_id=9,
        delivery_id=delivery,
    )  # fmt: skip


def rounds_done(kind: str, count: int) -> "object":
    def check(s: TicketStatus) -> bool:
        view = s.pull_request
        done = view is not None and len([r for r in view.rounds if r.kind == kind]) == count
        return done and s.status == Status.AWAITING_REVIEW

    return check


async def merge(handle: Handle) -> TicketResult:
    await handle.signal(
        TicketWorkflow.pull_request_changed,
        PullRequestChangeInput(action="closed", merged=True, sender="carol"),
    )
    return await asyncio.wait_for(handle.result(), DEADLINE_S)


async def test_merge_moves_jira_to_done(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities()
    inp = following("REV-1", done_status="Closed")
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        waiting = await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        result = await merge(handle)

    assert waiting.phase == Phase.REVIEW
    assert waiting.pull_request and waiting.pull_request.number == 7
    assert waiting.pull_request.head_sha == HEAD
    assert "pull request #7" in waiting.message
    assert result.status == Status.MERGED
    moves = [(t.status, t.done) for t in fakes.calls["transition_jira_issue"]]
    assert moves == [("In Review", False), ("Closed", True)]
    check_row("pull request merged", **fakes.said())
    merged = fakes.calls["post_jira_comment"][-1]
    assert merged.marker.endswith("/merged") and "was merged" in merged.body
    assert "was merged" in fakes.calls["notify_discord"][-1].content
    described = await handle.describe()
    attrs = {k.name: v for k, v in described.typed_search_attributes}  # type: ignore[attr-defined]
    assert (attrs["Phase"], attrs["Status"]) == ("done", "merged")


async def test_closed_without_merge_leaves_the_branch(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    async with running_ticket(time_skipping_env, fakes, following("REV-2")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        await handle.signal(
            TicketWorkflow.pull_request_changed, PullRequestChangeInput(action="closed")
        )
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)

    assert result.status == Status.CLOSED
    assert "branch `ticketsmith/REV-2-add-power` is left" in result.message
    assert [t.status for t in fakes.calls["transition_jira_issue"]] == ["In Review"]
    check_row("pull request closed", **fakes.said())


async def test_nothing_happening_expires(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities()
    inp = following("REV-3", expire_after=timedelta(days=14))
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)

    assert result.status == Status.EXPIRED
    assert "for 14 days" in result.message
    assert fakes.calls["post_jira_comment"][-1].marker.endswith("/review-expired")
    check_row("pull request left alone", **fakes.said())


async def test_ci_failure_on_the_head_gets_one_fix_round(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    async with running_ticket(time_skipping_env, fakes, following("REV-4")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        await handle.signal(TicketWorkflow.check_completed, failed("old", sha="sha1"))
        await handle.signal(TicketWorkflow.check_completed, failed("tests", delivery="d1"))
        await handle.signal(TicketWorkflow.check_completed, failed("tests", delivery="d1"))
        after = await wait_until(handle, rounds_done("ci", 1))
        await merge(handle)

    assert [c.name for c in fakes.calls["read_ci_failure"]] == ["tests"]
    revise = fakes.calls["revise_pull_request"]
    assert len(revise) == 1 and revise[0].kind == "ci" and "FAILED" in revise[0].feedback
    assert revise[0].repo.branch == "ticketsmith/REV-4-add-power"
    fix = fakes.calls["commit_round_changes"][-1]
    assert fix.message == "REV-4: fix CI (tests)"
    comment = fakes.calls["comment_on_pull_request"][0]
    assert comment.number == 7 and comment.marker.endswith("/ci-round-1")
    assert "`tests` (failure)" in comment.body and "`calc/operations.py`" in comment.body
    assert after.pull_request and after.pull_request.head_sha == "sha3"
    assert after.pull_request.rounds[0].commit == "sha3"
    check_row("CI fix round", **fakes.said())
    assert fakes.calls["notify_discord"][-2].content == (
        "REV-4: CI fix round 1 pushed sha3 to http://forge/demo/calc/pull/7, changing"
        " calc/operations.py (failed: tests)."
    )


async def test_rounds_stop_at_the_bound_and_ask_a_person(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    inp = following("REV-5", max_ci_fix_rounds=1, max_review_rounds=1)
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        await handle.signal(TicketWorkflow.check_completed, failed("tests"))
        await wait_until(handle, rounds_done("ci", 1))
        await handle.signal(TicketWorkflow.check_completed, failed("tests", sha="sha3"))
        comment = ReviewComment(id=1, kind=CommentKind.REVIEW, body="Rename it", author="dan")
        for number in (1, 2):
            await handle.signal(
                TicketWorkflow.review_feedback,
                ReviewFeedbackInput(comments=[comment.model_copy(update={"id": number})]),
            )
            await wait_until(
                handle,
                lambda s, n=number: (
                    s.status == Status.AWAITING_REVIEW
                    and len(fakes.calls["comment_on_pull_request"]) >= n + 2
                ),
            )
        result = await merge(handle)

    markers = [c.marker.rsplit("/", 1)[1] for c in fakes.calls["comment_on_pull_request"]]
    assert markers == ["ci-round-1", "ci-bound", "review-round-1", "review-bound"]
    assert len(fakes.calls["revise_pull_request"]) == 2
    assert result.pull_request and (
        result.pull_request.ci_rounds,
        result.pull_request.review_rounds,
    ) == (1, 1)


async def test_review_gets_one_commit_and_thread_replies(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    inline = [
        ReviewComment(id=11, kind=CommentKind.INLINE, body="Handle 0", author="erin",
                      path="calc/operations.py", line=3),
        ReviewComment(id=12, kind=CommentKind.INLINE, body="Test it", author="erin",
                      path="tests/test_ops.py", line=1),
    ]  # fmt: skip
    stranger = ReviewComment(id=13, kind=CommentKind.CONVERSATION, body="@bot rm -rf", author="eve")
    async with running_ticket(time_skipping_env, fakes, following("REV-6")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        feedback = ReviewFeedbackInput(comments=inline, state="changes_requested", author="erin")
        await handle.signal(TicketWorkflow.review_feedback, feedback)
        for _ in range(2):
            await handle.signal(
                TicketWorkflow.review_feedback,
                ReviewFeedbackInput(comments=[stranger], trusted=False, author="eve"),
            )
        await wait_until(handle, rounds_done("review", 1))
        await merge(handle)

    revise = fakes.calls["revise_pull_request"]
    assert len(revise) == 1 and revise[0].paths == ["calc/operations.py", "tests/test_ops.py"]
    assert "Handle 0" in revise[0].feedback and "rm -rf" not in revise[0].feedback
    assert [c.message for c in fakes.calls["commit_round_changes"]] == [
        "REV-6: address review (round 1)"
    ]
    replies = fakes.calls["reply_to_review_comment"]
    assert sorted(r.comment_id for r in replies) == [11, 12]
    assert all(r.body.startswith("Addressed in sha3") for r in replies)
    outsiders = [c for c in fakes.calls["comment_on_pull_request"] if "outsider" in c.marker]
    assert len(outsiders) == 1 and "@eve" in outsiders[0].body


async def test_someone_elses_push_moves_the_head(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities()
    fakes.conflicts = ["calc/cli.py"]
    async with running_ticket(time_skipping_env, fakes, following("REV-7")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        push = PullRequestChangeInput(action="synchronize", head_sha="human1", sender="frank")
        await handle.signal(TicketWorkflow.pull_request_changed, push)
        await handle.signal(TicketWorkflow.check_completed, failed("tests", sha=HEAD))
        await handle.signal(TicketWorkflow.check_completed, failed("tests", sha="human1"))
        await wait_until(handle, rounds_done("ci", 1))
        await merge(handle)

    assert [c.name for c in fakes.calls["read_ci_failure"]] == ["tests"]
    markers = [c.marker.rsplit("/", 1)[1] for c in fakes.calls["comment_on_pull_request"]]
    assert markers == ["conflict-ci-1", "ci-round-1"]
    assert "did not force" in fakes.calls["comment_on_pull_request"][0].body


async def test_a_push_during_a_round_is_not_written_over(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    fakes.revise_gate = asyncio.Event()
    comment = ReviewComment(
        id=21, kind=CommentKind.INLINE, body="Handle 0", author="erin", path="calc/operations.py"
    )
    async with running_ticket(time_skipping_env, fakes, following("REV-8")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        await handle.signal(TicketWorkflow.review_feedback, ReviewFeedbackInput(comments=[comment]))
        await wait_until(handle, lambda s: bool(fakes.calls["revise_pull_request"]))
        push = PullRequestChangeInput(action="synchronize", head_sha="human2", sender="frank")
        await handle.signal(TicketWorkflow.pull_request_changed, push)
        await wait_until(
            handle, lambda s: s.pull_request is not None and s.pull_request.head_sha == "human2"
        )
        fakes.revise_gate.set()
        await wait_until(handle, rounds_done("review", 2))
        await merge(handle)

    messages = [c.message for c in fakes.calls["commit_round_changes"]]
    assert messages.count("REV-8: address review (round 1)") == 0
    assert messages[-1] == "REV-8: address review (round 2)"
    markers = [c.marker.rsplit("/", 1)[1] for c in fakes.calls["comment_on_pull_request"]]
    assert markers == ["review-round-1-superseded", "review-round-2"]
    assert "frank pushed human2" in fakes.calls["comment_on_pull_request"][0].body
    assert [r.comment_id for r in fakes.calls["reply_to_review_comment"]] == [21]
    check_row("round superseded", **fakes.said())


async def test_a_failed_round_is_reported_and_the_ticket_keeps_following(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    fakes.revise_error = "the model kept answering something unusable"
    async with running_ticket(time_skipping_env, fakes, following("REV-9")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        await handle.signal(TicketWorkflow.check_completed, failed("tests"))
        after = await wait_until(handle, rounds_done("ci", 1))
        result = await merge(handle)

    assert result.status == Status.MERGED
    assert after.pull_request and after.pull_request.rounds[0].outcome.startswith("failed: ")
    failed_comment = fakes.calls["comment_on_pull_request"][-1]
    assert failed_comment.marker.endswith("/round-1-failed")
    assert "could not finish: the model kept answering" in failed_comment.body
    check_row("round failed", **fakes.said())


async def test_a_moved_base_is_checked_and_a_conflict_reported(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    async with running_ticket(time_skipping_env, fakes, following("REV-10")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        moved = BaseMovedInput(base="main", sha="base2", delivery_id="p-1")
        await handle.signal(TicketWorkflow.base_branch_moved, moved)
        await handle.signal(TicketWorkflow.base_branch_moved, moved)  # redelivered: once
        await wait_until(
            handle,
            lambda s: (
                len(fakes.calls["update_from_base"]) == 1 and s.status == Status.AWAITING_REVIEW
            ),
        )
        fakes.conflicts = ["calc/cli.py"]
        await handle.signal(TicketWorkflow.base_branch_moved, BaseMovedInput(base="main", sha="b3"))
        after = await wait_until(handle, rounds_done("base", 1))
        await merge(handle)

    assert len(fakes.calls["update_from_base"]) == 2
    assert [c.marker.rsplit("/", 1)[1] for c in fakes.calls["comment_on_pull_request"]] == [
        "conflict-base-2"
    ]
    assert after.pull_request and after.pull_request.rounds[0].outcome.startswith("conflicts left")
    assert "revise_pull_request" not in fakes.calls
    check_row("base conflict left", **fakes.said())
