"""The ticket workflow's pull-request signals: webhooks record events; the review phase acts."""

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from workflows.review.inbox import PullRequestInbox
    from workflows.review.messages import (
        BaseMovedInput,
        CheckInput,
        PullRequestChangeInput,
        PullRequestView,
        ReviewFeedbackInput,
    )
    from workflows.ticket.messages import TicketStatus

PullRequestSignal = CheckInput | ReviewFeedbackInput | BaseMovedInput | PullRequestChangeInput


class PullRequestHandlers:
    """Signals from the GitHub webhook route; each delivery is recorded once."""

    def __init__(self, status: TicketStatus) -> None:
        self._pr_view = PullRequestView()
        self._inbox = PullRequestInbox(self._pr_view)
        self._signalled = status

    def _first(self, inp: PullRequestSignal) -> bool:
        """A delivery not recorded before; one without a checked signature is counted."""
        if not self._inbox.first(inp.delivery_id, workflow.now()):
            return False
        if inp.unsigned:
            self._signalled.unsigned_deliveries += 1
        return True

    @workflow.signal
    def check_completed(self, inp: CheckInput) -> None:
        """A check run, suite, Actions run or commit status completed."""
        if self._first(inp):
            self._inbox.record_check(inp)

    @workflow.signal
    def review_feedback(self, inp: ReviewFeedbackInput) -> None:
        """A review, inline comments, or a conversation comment addressed to the bot."""
        if self._first(inp):
            self._inbox.record_feedback(inp)

    @workflow.signal
    def base_branch_moved(self, inp: BaseMovedInput) -> None:
        """The base branch moved: the branch is brought up to date if they now conflict."""
        if self._first(inp):
            self._inbox.base_moved = True

    @workflow.signal
    def pull_request_changed(self, inp: PullRequestChangeInput) -> None:
        """The pull request was closed, merged or pushed to."""
        if self._first(inp):
            self._inbox.record_change(inp)
