"""Round activities on a pull request's branch: revise for feedback, bring the base in.

Both start from the remote branch, so commits other people pushed are built on.
"""

from langchain_core.language_models import BaseChatModel
from temporalio import activity

from activities.agents import WORKSPACE, model_answers, report_tokens
from activities.heartbeat import heartbeating
from activities.repo import Workspaces
from activities.review.judge import judge_round
from activities.review.merging import merge_base
from activities.review.messages import ReviseInput, UpdateFromBaseInput, UpdateFromBaseResult
from activities.review.push import commit_round
from activities.review.round_messages import (
    CommitRoundInput,
    CommitRoundResult,
    JudgeCommentsInput,
    JudgeCommentsResult,
)
from activities.steering import TicketSteering
from activities.testing.tester import WorkspaceTester, instruction_checks
from graphs.implementation.graph import implement_plan
from graphs.review.comment_scope import hold_changes
from graphs.review.feedback import feedback_plan, paths_in, repository_file
from graphs.schemas import Implementation

TEST_TIMEOUT_SECONDS = 600.0
PLAN_DIR = ".ticketsmith/"  # the plan file is the ticket's record, not code to revise


class RoundActivities:
    """The agent team's work on an open pull request."""

    def __init__(self, model: BaseChatModel, workspaces: Workspaces) -> None:
        self._model = model
        self._workspaces = workspaces

    @activity.defn
    async def revise_pull_request(self, inp: ReviseInput) -> Implementation:
        """Change the branch's files so the feedback is addressed (not committed here)."""
        async with self._workspaces.using(inp.repo, WORKSPACE) as workspace:
            repo_dir = await workspace.sync(inp.repo.branch, inp.repo.base_branch)
            base_sha = await workspace.head_sha()
            named = [*inp.paths, *paths_in(inp.feedback, repo_dir)]
            if inp.kind == "ci" or not named:  # a failure shows where it hurts, not the cause
                named += await workspace.changed_files(inp.repo.base_branch)
            paths = list(
                dict.fromkeys(
                    p for p in named if repository_file(p, repo_dir) and not p.startswith(PLAN_DIR)
                )
            )
            tester = None
            if inp.test_command:
                checks = instruction_checks(repo_dir) if getattr(inp, "run_checks", True) else []
                tester = WorkspaceTester(
                    self._workspaces, inp.repo, inp.test_command, TEST_TIMEOUT_SECONDS,
                    inp.setup_command, checks,
                )  # fmt: skip
            plan = feedback_plan(inp.kind, inp.feedback, paths)
            work = implement_plan(
                self._model, repo_dir, inp.ticket, plan, None,
                tester=tester, max_revisions=inp.max_revisions,
                steering=TicketSteering(inp.repo.workflow_id),
            )  # fmt: skip
            with model_answers():
                implementation = await heartbeating(work)
            comments = getattr(inp, "comments", [])
            if comments:  # read against the branch as the comments saw it
                changes, left_out = hold_changes(repo_dir, implementation.changes, comments)
                implementation.changes, implementation.left_out = changes, left_out
        implementation.base_sha = base_sha
        report_tokens(f"revise_pull_request ({inp.kind})", implementation.tokens)
        return implementation

    @activity.defn
    async def update_from_base(self, inp: UpdateFromBaseInput) -> UpdateFromBaseResult:
        """Merge the base into the branch when they conflict, resolving file by file; push."""
        async with self._workspaces.using(inp.repo, "git") as workspace:
            await workspace.sync(inp.repo.branch, inp.repo.base_branch)
            with model_answers():
                result = await heartbeating(
                    merge_base(self._model, workspace, self._workspaces.environments, inp)
                )
            if result.merged and result.sha:
                result.sha = await workspace.push(inp.repo.branch)
        return result

    @activity.defn
    async def commit_round_changes(self, inp: CommitRoundInput) -> CommitRoundResult:
        """Commit a round's files and push, merging in what others pushed (never forced)."""
        async with self._workspaces.using(inp.repo, "git") as workspace:
            with model_answers():
                result = await heartbeating(
                    commit_round(self._model, workspace, self._workspaces.environments, inp)
                )
        report_tokens("commit_round_changes", result.tokens)
        return result

    @activity.defn
    async def judge_review_comments(self, inp: JudgeCommentsInput) -> JudgeCommentsResult:
        """Whether the round's changes address each comment, with the reply to give."""
        async with self._workspaces.using(inp.repo, "judge") as workspace:
            with model_answers():
                result = await heartbeating(judge_round(self._model, workspace, inp))
        report_tokens("judge_review_comments", result.tokens)
        return result
