"""The review phase: the ticket follows its pull request until it is merged, closed or left."""

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta

from temporalio import workflow
from temporalio.exceptions import ActivityError, ApplicationError, is_cancelled_exception

with workflow.unsafe.imports_passed_through():
    from activities.review.messages import CiFailureReport, FailedJob
    from workflows.review import texts as review_texts
    from workflows.review.inbox import PullRequestInbox
    from workflows.review.messages import CheckInput, RoundRecord
    from workflows.review.reruns import CiReruns
    from workflows.review.rounds import PullRequestRounds
    from workflows.ticket.messages import Phase, Status, TicketInput
    from workflows.ticket.outbox import Outbox
    from workflows.ticket.tracker import Tracker


CI_ROUND_PER_HEAD = "ci-round-once-per-head"
# A CI failure is read and classified before any model call: a flaky Actions job is run again
# (a bounded number of times per head commit) instead of getting a fix round.
CI_RERUNS = "ci-flake-reruns"
LABELS = {"ci": "CI fix round", "review": "Review round", "base": "Base update round",
          "rerun": "CI rerun"}  # fmt: skip
# A round that pushes to the pull request is told to the project's Discord channel.
NOTIFY_ROUND_PUSH = "notify-round-push"


class ReviewPhase:
    """Waits for pull-request events and runs bounded rounds; returns how the ticket ends."""

    def __init__(
        self,
        inp: TicketInput,
        tracker: Tracker,
        outbox: Outbox,
        inbox: PullRequestInbox,
        rounds: PullRequestRounds,
        pr_url: str,
    ) -> None:
        self._inp, self._tracker, self._outbox = inp, tracker, outbox
        self._inbox, self._rounds, self._url = inbox, rounds, pr_url
        self._view = inbox.view
        self._policy = inp.review
        self._base_checks = 0
        self._reruns = CiReruns(self._policy.ci_reruns_per_commit)

    async def follow(self) -> tuple[Status, str]:
        """Act on events until the pull request is merged or closed, or nothing happens."""
        self._inbox.last_activity = self._inbox.last_activity or workflow.now()
        self._inbox.reruns = workflow.patched(CI_RERUNS)
        while True:
            self._waiting()
            if not await self._wait_for_work():
                message = (
                    f"Nothing happened on {self._url} for {self._days()} days; "
                    "ticketsmith stops following it."
                )
                return Status.EXPIRED, message
            change = self._inbox.change
            if change is not None:
                return await self._ended(change.merged)
            # A review arrives as several deliveries (its body, each inline comment) and a CI
            # failure as several checks: gather them into one round.
            if self._policy.batch_window > timedelta(0):
                summary = "Gather the rest of this review or CI run"
                await workflow.sleep(self._policy.batch_window, summary=summary)
                if self._inbox.change is not None:
                    continue
            outsiders = self._inbox.take_outsiders()
            await asyncio.gather(
                *(
                    self._rounds.comment(
                        f"outsider-{c.author}", review_texts.OUTSIDER_REPLY.format(author=c.author)
                    )
                    for c in outsiders
                )
            )
            if self._inbox.repeated_failures() and workflow.patched(CI_ROUND_PER_HEAD):
                self._inbox.drop_repeated_failures()
            if self._inbox.failures and self._inbox.reruns:
                await self._guarded(self._ci_triage, "CI")
            elif self._inbox.failures:
                await self._guarded(self._ci_round, "CI fix")
            if self._inbox.comments:
                await self._guarded(self._review_round, "review")
            if self._inbox.base_moved:  # the rounds above bring the base in themselves
                self._inbox.base_moved = False
                await self._guarded(self._base_round, "base update")

    async def _wait_for_work(self) -> bool:
        """True once there is work; False after `expire_after` without any event."""
        while True:
            last = self._inbox.last_activity or workflow.now()
            left = last + self._policy.expire_after - workflow.now()
            if left <= timedelta(0):
                return False
            try:
                await workflow.wait_condition(
                    self._inbox.has_work,
                    timeout=left,
                    timeout_summary=f"awaiting_review: {self._view.waiting_for}",
                )
                return True
            except TimeoutError:
                continue  # an event without work may have moved the deadline

    def _waiting(self) -> None:
        number = self._rounds.number
        self._view.waiting_for = (
            f"CI results, reviews or a merge of pull request #{number} ({self._url})"
        )
        self._tracker.set(
            Phase.REVIEW, Status.AWAITING_REVIEW, f"Waiting for {self._view.waiting_for}"
        )

    async def _guarded(self, run_round: Callable[[], Awaitable[None]], kind: str) -> None:
        """A round that fails after its retries is reported; the ticket keeps following."""
        try:
            await run_round()
        except ActivityError as err:
            if is_cancelled_exception(err):
                raise
            cause = err.cause.message if isinstance(err.cause, ApplicationError) else str(err)
            record = self._view.rounds[-1] if self._view.rounds else None
            if record is not None and not record.outcome:
                record.outcome = f"failed: {cause}"
            number = len(self._view.rounds)
            body = review_texts.round_failed_comment(kind, cause)
            await self._rounds.comment(f"round-{number}-failed", body)

    async def _ci_triage(self) -> None:
        """Read what failed before any model call: flaky jobs are run again, the rest fixed."""
        failures = self._inbox.pop_failures()
        reports = await self._rounds.read_failures(failures)
        triage = self._reruns.triage(failures, reports)
        note = ""
        if triage.rerun:
            refused = await self._rerun(failures[0].head_sha, triage.rerun)
            if not refused:
                return
            note = review_texts.rerun_refused(refused)
        elif triage.used_up:
            note = review_texts.reruns_used_up(triage.used_up, self._reruns.limit)
        if triage.fix:
            self._inbox.fixing(triage.fix)
            await self._fix(triage.fix, triage.reports, note)

    async def _rerun(self, head: str, jobs: list[FailedJob]) -> str:
        """Run the flaky jobs again, count it against the commit and say so on the PR; GitHub's
        reason when it refused ("" when every rerun is under way)."""
        self._view.ci_reruns += 1
        number = self._view.ci_reruns
        count = self._reruns.asked(head, jobs)
        trigger = "; ".join(f"`{job.name}`: {job.verdict.reason}" for job in jobs)
        record = self._start("rerun", number, trigger)
        results = await asyncio.gather(*(self._rounds.rerun_job(job, head) for job in jobs))
        self._inbox.last_activity = workflow.now()
        refused = next((r.refused for r in results if r.refused), "")
        if refused:
            record.outcome = f"refused: {refused[:200]}"
            return refused
        record.outcome = f"rerun {count} of {self._reruns.limit} on {head[:7]}"
        body = review_texts.rerun_comment(jobs, head, count, self._reruns.limit)
        await self._rounds.comment(f"ci-rerun-{number}", body)
        return ""

    async def _ci_round(self) -> None:
        await self._fix(self._inbox.take_failures())

    async def _fix(
        self, failures: list[CheckInput], reports: list[CiFailureReport] | None = None,
        note: str = "",
    ) -> None:  # fmt: skip
        if self._view.ci_rounds >= self._policy.max_ci_fix_rounds:
            await self._at_bound("ci", self._policy.max_ci_fix_rounds)
            return
        self._view.ci_rounds += 1
        number = self._view.ci_rounds
        names = ", ".join(f.name for f in failures)
        record = self._start("ci", number, f"failed: {names}")
        await self._base(number, f"ci-{number}")
        self._inbox.base_moved = False
        sha, files = await self._rounds.ci_round(number, failures, reports, note)
        self._finish(record, sha, files, self._rounds.push_outcome())
        await self._announce(record)

    async def _review_round(self) -> None:
        comments = self._inbox.take_comments()
        if self._view.review_rounds >= self._policy.max_review_rounds:
            await self._at_bound("review", self._policy.max_review_rounds)
            return
        self._view.review_rounds += 1
        number = self._view.review_rounds
        authors = ", ".join(sorted({c.author for c in comments}))
        record = self._start("review", number, f"{len(comments)} comments by {authors}")
        await self._base(number, f"review-{number}")
        self._inbox.base_moved = False
        sha, files = await self._rounds.review_round(number, comments)
        self._finish(record, sha, files, self._rounds.push_outcome())
        await self._announce(record)

    async def _base_round(self) -> None:
        """The base moved without other work: merge it in if it now conflicts."""
        self._base_checks += 1
        number = self._base_checks
        self._tracker.set(Phase.REVIEW, Status.RUNNING, "Checking the branch against its base")
        await self._base(number, f"base-{number}")

    async def _base(self, number: int, step: str) -> None:
        result = await self._rounds.update_from_base(step)
        if result.merged or result.unresolved:
            outcome = "merged" if result.merged else f"conflicts left: {result.unresolved}"
            record = self._start("base", number, f"{self._rounds.repo.base_branch} moved")
            self._finish(record, result.sha, result.resolved, outcome)
            await self._announce(record)

    async def _at_bound(self, kind: str, limit: int) -> None:
        """Ask for a person once per kind; the ticket keeps waiting for the merge."""
        await self._rounds.comment(f"{kind}-bound", review_texts.bound_comment(kind, limit))

    def _start(self, kind: str, number: int, trigger: str) -> RoundRecord:
        record = RoundRecord(number=number, kind=kind, trigger=trigger, started_at=workflow.now())
        self._view.rounds.append(record)
        self._tracker.set(Phase.REVIEW, Status.RUNNING, f"{LABELS[kind]} {number}: {trigger}")
        return record

    def _finish(
        self, record: RoundRecord, sha: str | None, files: list[str], outcome: str = ""
    ) -> None:
        record.commit, record.files = sha, files
        record.outcome = outcome or (f"pushed {sha[:7]}" if sha else "no change")
        self._inbox.last_activity = workflow.now()

    async def _announce(self, record: RoundRecord) -> None:
        """Tell the project's Discord channel what a round pushed (nothing when it pushed none)."""
        if record.commit and workflow.patched(NOTIFY_ROUND_PUSH):
            notice = review_texts.round_notice(self._inp.key, record, self._url)
            await self._outbox.notify(notice)

    async def _ended(self, merged: bool) -> tuple[Status, str]:
        key, branch = self._inp.key, self._tracker.status.branch
        if merged:
            self._view.state = "merged"
            message = review_texts.merged_text(
                key, self._url, self._policy.done_status, self._outbox.tracker
            )
            await asyncio.gather(
                self._outbox.transition(self._policy.done_status, done=True),
                self._outbox.comment("merged", message),
                self._outbox.notify(message),
            )
            return Status.MERGED, message
        self._view.state = "closed"
        message = review_texts.closed_text(key, self._url, branch)
        await asyncio.gather(self._outbox.comment("closed", message), self._outbox.notify(message))
        return Status.CLOSED, message

    def _days(self) -> str:
        return f"{self._policy.expire_after.total_seconds() / 86400:g}"
