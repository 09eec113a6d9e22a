"""Rounds of work on an open pull request: fix CI, answer a review, bring the base in."""

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.messages import RepoRef, RunTestsInput
    from activities.repo import RepoActivities
    from activities.review.messages import (
        CiFailureReport,
        FailedJob,
        InlineComment,
        PullRequestCommentInput,
        ReadCiFailureInput,
        RerunJobInput,
        RerunJobResult,
        ReviewReplyInput,
        ReviseInput,
        UpdateFromBaseInput,
        UpdateFromBaseResult,
    )
    from activities.review.pull_requests import PullRequestActivities
    from activities.review.round_messages import CommitRoundInput, CommitRoundResult
    from activities.review.rounds import RoundActivities
    from workflows.policies import (
        HTTP_RETRY,
        HTTP_TIMEOUT,
        LLM_HEARTBEAT,
        LLM_RETRY,
        LLM_TIMEOUT,
        TEST_RETRY,
        TEST_TIMEOUT,
    )
    from workflows.review import texts as review_texts
    from workflows.review.inbox import PullRequestInbox
    from workflows.review.judged_round import judged_review_round, quoted_comments
    from workflows.review.messages import CheckInput, ReviewComment
    from workflows.ticket import texts
    from workflows.ticket.budget import spend
    from workflows.ticket.messages import Implementation, TicketContext, TicketInput, TicketStatus
    from workflows.ticket.outbox import Outbox

# A round's commit goes through commit_round_changes (merging in what others pushed).
MERGED_PUSHES = "round-push-merges"
# A review round's replies come from a judgement of each comment.
JUDGED_REVIEWS = "review-judged-replies"


class PullRequestRounds:
    """The activities of one round, each with its timeout, retries and Web UI summary."""

    def __init__(
        self,
        inp: TicketInput,
        status: TicketStatus,
        outbox: Outbox,
        inbox: PullRequestInbox,
        repo: RepoRef,
        ticket: TicketContext,
        number: int,
        before_agent: Callable[[], Awaitable[None]],
    ) -> None:
        self._inp, self._status, self._outbox, self._inbox = inp, status, outbox, inbox
        self.repo, self._ticket, self.number = repo, ticket, number
        self._before_agent = before_agent
        self.inbox, self.key = inbox, inp.key
        self.last_push: CommitRoundResult | None = None
        self.held_back = ""  # why a round with a change pushed none of it
        self._push_conflicts = 0

    async def comment(self, step: str, body: str) -> None:
        """Comment on the pull request once per run and step."""
        await self._http(
            PullRequestActivities.comment_on_pull_request,
            PullRequestCommentInput(
                repository=self.repo.repository, number=self.number, body=body,
                marker=self._marker(step),
            ),
            f"Comment on the pull request: {step}",
        )  # fmt: skip

    async def reply(self, step: str, comment: ReviewComment, body: str) -> None:
        """Reply in an inline comment's thread once."""
        await self._http(
            PullRequestActivities.reply_to_review_comment,
            ReviewReplyInput(
                repository=self.repo.repository, number=self.number,
                comment_id=comment.thread_id or comment.id, body=body, marker=self._marker(step),
                discussion_id=comment.discussion_id,
            ),
            f"Reply to comment {comment.id}",
        )  # fmt: skip

    async def ci_round(
        self, number: int, failures: list[CheckInput],
        reports: list[CiFailureReport] | None = None, note: str = "",
    ) -> tuple[str | None, list[str]]:  # fmt: skip
        """Read what failed (unless it was read already), revise, test, commit once and say
        what changed and why (after `note`)."""
        self.last_push, self.held_back = None, ""
        pushes = len(self._inbox.pushed_by_others)
        if reports is None:
            reports = await self.read_failures(failures)
        feedback = "\n\n".join(r.text for r in reports)
        done = await self.revise("ci", feedback, [])
        tests = await self.run_tests(done)
        if await self.pushed_meanwhile(pushes, f"ci-round-{number}"):
            return None, []  # the new head gets its own CI run
        sha = await self.commit_changes(
            done, f"{self._inp.key}: fix CI ({', '.join(f.name for f in failures)})"
        )
        push = self.last_push
        if sha is None and push is not None and push.unresolved:
            return None, []  # said on the PR; their commit gets its own CI run
        files = [c.path for c in done.changes] if sha else []
        summary = texts.tests_summary(tests.passed, tests.exit_code, tests.output)
        body = review_texts.ci_round_comment(number, failures, sha, files, summary, note)
        if push is not None:
            body += review_texts.merged_note(push.merged_heads, push.tests_passed)
        await self.comment(f"ci-round-{number}", body)
        return sha, files

    async def review_round(
        self, number: int, comments: list[ReviewComment]
    ) -> tuple[str | None, list[str]]:
        """Address every comment in one commit, or answer why not; reply in inline threads."""
        self.last_push, self.held_back = None, ""
        if workflow.patched(JUDGED_REVIEWS):
            return await judged_review_round(self, number, comments)
        pushes = len(self._inbox.pushed_by_others)
        quoted = quoted_comments(comments)
        paths = list(dict.fromkeys(c.path for c in comments if c.path))
        done = await self.revise("review", quoted, paths)
        await self.run_tests(done)
        if await self.pushed_meanwhile(pushes, f"review-round-{number}"):
            self._inbox.requeue(comments)
            return None, []
        sha = await self.commit_changes(done, f"{self._inp.key}: address review (round {number})")
        files = [c.path for c in done.changes] if sha else []
        replies = [
            self.reply(
                f"review-{number}-reply-{c.id}", c,
                review_texts.comment_reply(c, sha, files, done.notes),
            )
            for c in comments
            if c.path is not None
        ]  # fmt: skip
        await asyncio.gather(*replies)
        body = review_texts.review_round_comment(number, comments, sha, files, done.notes)
        await self.comment(f"review-round-{number}", body)
        return sha, files

    async def update_from_base(self, step: str) -> UpdateFromBaseResult:
        """Merge the base in when it conflicts; an unresolvable conflict is reported."""
        await self._before_agent()
        result: UpdateFromBaseResult = await workflow.execute_activity_method(
            RoundActivities.update_from_base,
            UpdateFromBaseInput(
                repo=self.repo,
                key=self._inp.key,
                test_command=self._inp.project.test_command,
                setup_command=self._inp.project.setup_command,
            ),  # fmt: skip
            task_queue=self._inp.agent_task_queue,
            start_to_close_timeout=LLM_TIMEOUT,
            heartbeat_timeout=LLM_HEARTBEAT,
            retry_policy=LLM_RETRY,
            summary=f"Bring {self.repo.base_branch} into the branch if it conflicts",
        )
        spend(self._status, result.tokens, result.cost)
        if result.sha:
            self._inbox.moved_to(result.sha, by_us=True)
        if result.unresolved:
            body = review_texts.conflict_comment(self.repo.base_branch, result.unresolved)
            await self.comment(f"conflict-{step}", body)
        return result

    async def read_failures(self, failures: list[CheckInput]) -> list[CiFailureReport]:
        """What each failure says, side by side (no model call)."""
        return list(await asyncio.gather(*(self._read_failure(f) for f in failures)))

    async def rerun_job(self, job: FailedJob, head_sha: str) -> RerunJobResult:
        """Ask Actions to run one job of the head commit again (once, however often retried)."""
        result: RerunJobResult = await self._http(
            PullRequestActivities.rerun_ci_job,
            RerunJobInput(repository=self.repo.repository, job_id=job.id, head_sha=head_sha),
            f"Rerun the job {job.name} ({job.verdict.reason})",
        )
        return result

    async def _read_failure(self, failure: CheckInput) -> CiFailureReport:
        report: CiFailureReport = await self._http(
            PullRequestActivities.read_ci_failure,
            ReadCiFailureInput(
                repository=self.repo.repository, name=failure.name,
                check_run_id=failure.check_run_id, workflow_run_id=failure.workflow_run_id,
                pipeline_id=failure.pipeline_id, details_url=failure.details_url,
                description=failure.description,
            ),
            f"Read why {failure.name} failed",
        )  # fmt: skip
        return report

    async def revise(
        self, kind: str, feedback: str, paths: list[str], comments: Sequence[InlineComment] = ()
    ) -> Implementation:
        await self._before_agent()
        done: Implementation = await workflow.execute_activity_method(
            RoundActivities.revise_pull_request,
            ReviseInput(
                repo=self.repo, ticket=self._ticket, kind=kind, feedback=feedback, paths=paths,
                test_command=self._inp.project.test_command,
                setup_command=self._inp.project.setup_command,
                run_checks=self._inp.project.instruction_checks, comments=list(comments),
            ),
            task_queue=self._inp.agent_task_queue,
            start_to_close_timeout=LLM_TIMEOUT,
            heartbeat_timeout=LLM_HEARTBEAT,
            retry_policy=LLM_RETRY,
            summary=f"Revise the branch for the {kind} feedback",
        )  # fmt: skip
        spend(self._status, done.tokens, done.cost)
        self._status.steering.stop_requested_by = ""  # a stop ends the round it was sent to
        return done

    async def run_tests(self, done: Implementation) -> Any:
        return await workflow.execute_activity_method(
            RepoActivities.run_tests,
            RunTestsInput(
                repo=self.repo,
                changes=done.changes,
                test_command=self._inp.project.test_command,
                setup_command=self._inp.project.setup_command,
            ),  # fmt: skip
            start_to_close_timeout=TEST_TIMEOUT,
            heartbeat_timeout=LLM_HEARTBEAT,
            retry_policy=TEST_RETRY,
            summary=f"Run `{self._inp.project.test_command}`",
        )

    async def pushed_meanwhile(self, pushes: int, step: str) -> bool:
        """Whether someone else pushed while the round worked: then its files are not written
        over theirs; the round says so and the work starts again from their commit."""
        if len(self._inbox.pushed_by_others) == pushes:
            return False
        latest = self._inbox.pushed_by_others[-1]
        await self.comment(f"{step}-superseded", review_texts.superseded_comment(latest))
        return True

    async def commit_changes(self, done: Implementation, message: str) -> str | None:
        """One commit for the round, pushed on top of the remote branch (never forced)."""
        self.last_push = None
        if not done.changes:
            return None
        if workflow.patched(MERGED_PUSHES):
            return await self._commit_merging(done, message)
        sha = await self._outbox.commit(self.repo, done.changes, message)
        self._inbox.moved_to(sha, by_us=True)
        return sha

    async def _commit_merging(self, done: Implementation, message: str) -> str | None:
        """Commit on the head the revision read and push; a push that someone else's beat
        merges theirs in. Which shas are whose is recorded, whatever order webhooks come in."""
        result = await self.agent(
            RoundActivities.commit_round_changes,
            CommitRoundInput(
                repo=self.repo, key=self._inp.key, files=done.changes, message=message,
                base_sha=done.base_sha, test_command=self._inp.project.test_command,
                setup_command=self._inp.project.setup_command,
            ),
            message,
        )  # fmt: skip
        self.last_push = result
        self._inbox.pushed_by_us(result.own_shas, result.merged_heads)
        if result.sha is None:
            self._push_conflicts += 1
            body = review_texts.push_conflict_comment(result.unresolved)
            await self.comment(f"push-conflict-{self._push_conflicts}", body)
            return None
        self._inbox.moved_to(result.sha, by_us=True)
        return result.sha

    def push_outcome(self) -> str:
        """The round's outcome when it held its change back or its push conflicted with
        someone else's ("" otherwise)."""
        if self.held_back:
            return self.held_back
        push = self.last_push
        if push is None or not push.unresolved:
            return ""
        return f"not pushed: conflicts with a push in {', '.join(push.unresolved)}"

    async def agent(self, activity: Any, arg: Any, summary: str) -> Any:
        """Run an agent-queue activity that finishes a round and count its tokens (no pause
        for the budget: the round's revision already passed that check)."""
        result = await workflow.execute_activity_method(
            activity, arg, task_queue=self._inp.agent_task_queue,
            start_to_close_timeout=LLM_TIMEOUT, heartbeat_timeout=LLM_HEARTBEAT,
            retry_policy=LLM_RETRY, summary=summary,
        )  # fmt: skip
        spend(self._status, result.tokens, result.cost)
        return result

    async def _http(self, activity: Any, arg: Any, summary: str) -> Any:
        return await workflow.execute_activity_method(
            activity, arg, start_to_close_timeout=HTTP_TIMEOUT, retry_policy=HTTP_RETRY,
            summary=summary,
        )  # fmt: skip

    def _marker(self, step: str) -> str:
        info = workflow.info()
        return f"{info.workflow_id}/{info.run_id}/{step}"
