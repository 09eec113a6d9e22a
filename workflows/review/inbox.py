"""Pull-request events a ticket received and has not acted on yet, deduplicated."""

from datetime import datetime

from workflows.review.messages import (
    CheckInput,
    CheckState,
    PullRequestChangeInput,
    PullRequestView,
    ReviewComment,
    ReviewFeedbackInput,
)

FAILED = {"failure", "timed_out", "error", "startup_failure"}
# A cancelled job may well pass when run again: work once reruns are in force.
RERUNNABLE = FAILED | {"cancelled"}


class PullRequestInbox:
    """Records what signals carried; the review phase takes the work out in batches."""

    def __init__(self, view: PullRequestView) -> None:
        self.view = view
        self.failures: dict[str, CheckInput] = {}  # by check name, on the current head only
        self.fixed_heads: set[str] = set()  # commits a CI fix round was started for
        self.comments: dict[int, ReviewComment] = {}
        self.handled: set[int] = set()
        self.outsiders: dict[str, ReviewComment] = {}  # one polite reply per login
        self.answered_outsiders: set[str] = set()
        self.change: PullRequestChangeInput | None = None
        self.own_shas: set[str] = set()
        self.pushed_by_others: list[str] = []
        # Heads known to be behind the branch head (a push's `before`, what a round merged in):
        # their webhooks may come late and must not move the head back.
        self.superseded: set[str] = set()
        self.last_activity: datetime | None = None
        self.base_moved = False
        self.reruns = False  # flaky CI is rerun before it is fixed (set by the review phase)
        self._deliveries: set[str] = set()

    def first(self, delivery_id: str | None, at: datetime) -> bool:
        """False for a delivery already recorded; any new one counts as activity."""
        if delivery_id is not None:
            if delivery_id in self._deliveries:
                return False
            self._deliveries.add(delivery_id)
        self.last_activity = at
        return True

    def has_work(self) -> bool:
        """Whether anything waits to be acted on."""
        work = self.change or self.failures or self.comments or self.outsiders
        return bool(work or self.base_moved)

    def record_check(self, inp: CheckInput) -> None:
        """Keep a check's conclusion; a failure on the head commit becomes work."""
        head = self.view.head_sha
        if head is not None and inp.head_sha != head:
            return  # a commit that is no longer the head
        checks = [c for c in self.view.checks if c.name != inp.name]
        checks.append(CheckState(name=inp.name, conclusion=inp.conclusion, head_sha=inp.head_sha))
        self.view.checks = checks
        if inp.conclusion in (RERUNNABLE if self.reruns else FAILED):
            self.failures[inp.name] = inp
        else:
            self.failures.pop(inp.name, None)

    def record_feedback(self, inp: ReviewFeedbackInput) -> None:
        """Comments from people who may start rounds; others are owed one reply."""
        for comment in inp.comments:
            if not inp.trusted:
                if comment.author not in self.answered_outsiders:
                    self.outsiders.setdefault(comment.author, comment)
            elif comment.body.strip() and comment.id not in self.handled:
                self.comments.setdefault(comment.id, comment)

    def record_change(self, inp: PullRequestChangeInput) -> None:
        """Closed or merged ends the wait; a push moves the head (someone else's is noted)."""
        if inp.action == "closed":
            self.change = inp
        elif inp.action == "synchronize" and inp.head_sha:
            if inp.before:
                self.superseded.add(inp.before)
            if inp.head_sha in self.superseded:
                return  # a push the branch has moved past; its webhook came late
            self.moved_to(inp.head_sha, by_us=inp.head_sha in self.own_shas)
            if inp.head_sha not in self.own_shas:
                self.pushed_by_others.append(f"{inp.sender} pushed {inp.head_sha[:7]}")

    def pushed_by_us(self, own: list[str], merged: list[str]) -> None:
        """A round's push: its commits are ours (a webhook that came first is corrected) and
        the heads it built on or merged in are behind its head."""
        self.own_shas.update(own)
        self.superseded.update([*own[:-1], *merged])
        short = {sha[:7] for sha in own}
        self.pushed_by_others = [p for p in self.pushed_by_others if p[-7:] not in short]

    def moved_to(self, sha: str, by_us: bool) -> None:
        """The branch head is now `sha`: failures on the old head no longer count."""
        if by_us:
            self.own_shas.add(sha)
        if sha in self.superseded:
            return
        if sha != self.view.head_sha:
            self.view.head_sha = sha
            self.failures = {n: f for n, f in self.failures.items() if f.head_sha == sha}
            self.view.checks = [c for c in self.view.checks if c.head_sha == sha]

    def take_failures(self) -> list[CheckInput]:
        """The failures, their commits marked as having had their fix round."""
        failures = self.pop_failures()
        self.fixing(failures)
        return failures

    def pop_failures(self) -> list[CheckInput]:
        """The failures, to be read before anything is decided about them."""
        failures, self.failures = list(self.failures.values()), {}
        return failures

    def fixing(self, failures: list[CheckInput]) -> None:
        """A fix round starts for these failures' commits."""
        self.fixed_heads.update(f.head_sha for f in failures)

    def repeated_failures(self) -> bool:
        """Whether a failure waits on a commit that already had its fix round."""
        return any(f.head_sha in self.fixed_heads for f in self.failures.values())

    def drop_repeated_failures(self) -> None:
        """One commit, one fix round: a check of the same CI that reports later (an Actions
        run after its job's check run) adds nothing the round did not already read."""
        self.failures = {
            n: f for n, f in self.failures.items() if f.head_sha not in self.fixed_heads
        }

    def take_comments(self) -> list[ReviewComment]:
        comments, self.comments = list(self.comments.values()), {}
        self.handled.update(c.id for c in comments)
        return comments

    def requeue(self, comments: list[ReviewComment]) -> None:
        """Comments a dropped round did not answer: they go into the next round."""
        for comment in comments:
            self.handled.discard(comment.id)
            self.comments.setdefault(comment.id, comment)

    def take_outsiders(self) -> list[ReviewComment]:
        outsiders, self.outsiders = list(self.outsiders.values()), {}
        self.answered_outsiders.update(c.author for c in outsiders)
        return outsiders
