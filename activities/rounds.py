"""Round activities on a pull request's branch: revise for feedback, bring the base in.

Both start from the remote branch, so commits other people pushed are built on.
"""

from langchain_core.language_models import BaseChatModel
from temporalio import activity

from activities.agents import WORKSPACE, model_answers, report_tokens
from activities.heartbeat import heartbeating
from activities.merging import merge_base
from activities.pr_messages import ReviseInput, UpdateFromBaseInput, UpdateFromBaseResult
from activities.repo import Workspaces
from activities.tester import WorkspaceTester
from graphs.feedback import feedback_plan, paths_in, repository_file
from graphs.implementation.graph import implement_plan
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
                tester = WorkspaceTester(
                    self._workspaces, inp.repo, inp.test_command, TEST_TIMEOUT_SECONDS,
                    inp.setup_command,
                )  # fmt: skip
            plan = feedback_plan(inp.kind, inp.feedback, paths)
            work = implement_plan(
                self._model, repo_dir, inp.ticket, plan, None,
                tester=tester, max_revisions=inp.max_revisions,
            )  # fmt: skip
            with model_answers():
                implementation = await heartbeating(work)
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
