"""A review round pushes only what the comments it addressed are about: files no comment is
about are put back before the tests and the judgement, and a round that addressed no comment
pushes nothing and says why."""

from temporalio.testing import WorkflowEnvironment

from activities.review.messages import InlineComment
from activities.review.round_messages import CommentJudgement, JudgeCommentsResult
from tests.support.notices import check_row
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_judged_rounds import OPS, TESTS, inline, replies
from tests.workflows.test_review_phase import following, merge, rounds_done
from tests.workflows.test_ticket_workflow import awaiting, running_ticket, wait_until
from workflows.review.messages import CommentKind, ReviewComment, ReviewFeedbackInput
from workflows.review.scope import about, addressed_files, outside
from workflows.ticket.messages import FileChange, Status
from workflows.ticket.workflow import TicketWorkflow

CLI = "calc/cli.py"
DOCSTRING = "Give power() a docstring saying negative exponents give floats."


def conversation(id: int, body: str) -> ReviewComment:
    return ReviewComment(id=id, kind=CommentKind.CONVERSATION, body=body, author="erin")


def test_which_files_a_comment_is_about() -> None:
    changed = [OPS, CLI, TESTS]
    assert about(inline(1, "Anything at all.", OPS), changed) == [OPS]
    assert about(conversation(2, "In cli.py, say pow."), changed) == [CLI]
    assert about(conversation(3, "Rename `calc/operations.py`'s power."), changed) == [OPS]
    assert about(conversation(4, "Looks good, tidy it up."), changed) == changed
    assert about(conversation(5, "See mycli.py and cli.pyc."), changed) == changed

    changes = [FileChange(path=p, content="x\n") for p in changed]
    named = [inline(1, "Say so.", OPS), conversation(2, "And cli.py.")]
    assert outside(changes, named) == [TESTS]
    comments = [inline(1, "Say so.", OPS), inline(6, "Test it.", TESTS)]
    assert addressed_files(changes, comments, {1: (True, ""), 6: (False, "")}) == [OPS]
    assert addressed_files(changes, comments, {}) == [OPS, TESTS]  # no judgement: as changed


async def test_a_round_that_addressed_no_comment_pushes_nothing_and_says_why(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    fakes.revise_also = [CLI]  # the revision rewrote a file no comment is about
    fakes.revise_left_out = ["`divide` in `calc/operations.py`"]  # and put a definition back
    fakes.judgement = JudgeCommentsResult(
        judgements=[CommentJudgement(id=61, addressed=False, reply="power() has no docstring")]
    )
    async with running_ticket(time_skipping_env, fakes, following("HELD-1")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        feedback = ReviewFeedbackInput(comments=[inline(61, DOCSTRING, OPS)])
        await handle.signal(TicketWorkflow.review_feedback, feedback)
        status = await wait_until(handle, rounds_done("review", 1))
        await merge(handle)

    assert fakes.calls["revise_pull_request"][0].comments == [
        InlineComment(path=OPS, line=2, body=DOCSTRING)
    ]
    assert [c.path for c in fakes.calls["run_tests"][-1].changes] == [OPS]
    assert [c.path for c in fakes.calls["judge_review_comments"][0].changes] == [OPS]
    assert fakes.calls["commit_round_changes"] == []  # nothing pushed
    assert replies(fakes) == {
        61: "Not addressed, so nothing was pushed for it: power() has no docstring. Left out of "
        "the round, as no comment is about them: `calc/cli.py`, `divide` in `calc/operations.py`."
    }
    summary = fakes.calls["comment_on_pull_request"][-1].body
    assert "Commit" not in summary and "(re: comment 61)" in summary
    view = status.pull_request
    assert view is not None and view.rounds[-1].commit is None
    assert view.rounds[-1].outcome == "not pushed: no comment was addressed"
    notices = [n.content for n in fakes.calls["notify_discord"]]
    assert not any("review round 1 pushed" in n for n in notices)
    check_row("review round held to its comments", github=[*replies(fakes).values(), summary])


async def test_a_round_whose_change_is_only_elsewhere_pushes_nothing(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    fakes.revise_unchanged, fakes.revise_also = True, [CLI]
    async with running_ticket(time_skipping_env, fakes, following("HELD-2")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        feedback = ReviewFeedbackInput(comments=[inline(62, DOCSTRING, OPS)])
        await handle.signal(TicketWorkflow.review_feedback, feedback)
        status = await wait_until(handle, rounds_done("review", 1))
        await merge(handle)

    assert fakes.calls["judge_review_comments"] == [] and fakes.calls["commit_round_changes"] == []
    view = status.pull_request
    assert view is not None and view.rounds[-1].outcome == (
        "not pushed: the revision changed only what no comment is about"
    )
    assert replies(fakes) == {
        62: "Not addressed, so nothing was pushed for it: the revision changed only what no "
        "comment is about. Left out of the round, as no comment is about them: `calc/cli.py`."
    }
