"""A round's commit, pushed without force even when someone else pushed to the branch first.

The commit is made on the head the revision read, so whole-file edits never land over files
another person changed since. A rejected push fetches their commits and merges them in (a
merge keeps their commits as they are), resolving conflicts file by file as base updates do,
runs the tests again and pushes; a conflict that stays stops the round with nothing pushed.
"""

from langchain_core.language_models import BaseChatModel
from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities.repo import apply_changes
from activities.review.round_messages import CommitRoundInput, CommitRoundResult
from activities.testing.run import run_project_tests
from graphs.review.merging import resolve_conflict
from integrations.environments.build import Environments
from integrations.git.client import GitWorkspace
from integrations.git.push import (
    conclude,
    fetch_branch,
    is_ancestor,
    merge_remote_branch,
    push_unforced,
)

MAX_PUSHES = 4  # someone pushing again between every fetch and push is not a race we win
TEST_TIMEOUT_SECONDS = 600.0


async def commit_round(
    model: BaseChatModel, workspace: GitWorkspace, environments: Environments,
    inp: CommitRoundInput,
) -> CommitRoundResult:  # fmt: skip
    """Commit the files, push, and merge in what others pushed meanwhile; never forced."""
    branch = inp.repo.branch
    await workspace.sync(branch, inp.repo.base_branch)
    remote = await workspace.head_sha()
    await apply_changes(workspace, inp.files)
    if not (await workspace.run_git("status", "--porcelain"))[1]:
        # The branch already holds these files: a retry after the push went through.
        return CommitRoundResult(sha=remote, changed=False)
    start = inp.base_sha or remote
    if start != remote and await is_ancestor(workspace, start, remote):
        await workspace.run_git("checkout", "--quiet", "--force", "-B", branch, start)
        await apply_changes(workspace, inp.files)
    sha = await workspace.commit(inp.message)
    if sha is None:
        return CommitRoundResult(sha=await workspace.head_sha(), changed=False)
    result = CommitRoundResult(sha=sha, changed=True, own_shas=[sha])
    if start != remote:
        activity.logger.info("the branch moved to %s since the revision read it", remote[:7])
    for _ in range(MAX_PUSHES):
        if await push_unforced(workspace, branch):
            result.sha = await workspace.head_sha()
            return result
        if not await _merge_theirs(model, workspace, environments, inp, result):
            return result
    raise ApplicationError(
        f"`{branch}` kept moving under {MAX_PUSHES} pushes; the round's commit is not pushed",
        type="BranchKeptMoving",
    )


async def _merge_theirs(
    model: BaseChatModel, workspace: GitWorkspace, environments: Environments,
    inp: CommitRoundInput, result: CommitRoundResult,
) -> bool:  # fmt: skip
    """Merge the remote branch's new commits in and test again; False when it conflicts."""
    branch = inp.repo.branch
    theirs = await fetch_branch(workspace, branch)
    activity.logger.info("push rejected: %s moved to %s; merging it in", branch, theirs[:7])
    message = f"{inp.key}: merge {theirs[:7]} pushed to the branch meanwhile"
    conflicted = await merge_remote_branch(workspace, branch, message)
    for path in conflicted:
        text = (workspace.root / path).read_text(encoding="utf-8", errors="replace")
        content, used = await resolve_conflict(model, inp.key, branch, branch, path, text)
        result.tokens += used
        if content is None:
            await workspace.abort_merge()
            result.sha, result.unresolved = None, conflicted
            return False
        await workspace.write_files({path: content})
    sha = await conclude(workspace, message) if conflicted else await workspace.head_sha()
    result.own_shas.append(sha)
    result.merged_heads.append(theirs)
    if inp.test_command:
        report = await run_project_tests(
            environments, workspace, inp.repo.repository, inp.test_command,
            TEST_TIMEOUT_SECONDS, inp.setup_command,
        )  # fmt: skip
        result.tests_passed = report.passed
    return True
