"""Pushing onto a branch other people push to: never forced, their commits merged, not rewritten."""

import re

from integrations.git.client import GitError, GitWorkspace

# What git says when the remote branch moved under a push (client or server side).
_REJECTED = re.compile(
    r"\[rejected\]|\[remote rejected\]|non-fast-forward|fetch first|failed to update ref|"
    r"incorrect old value|cannot lock ref",
    re.IGNORECASE,
)


async def push_unforced(workspace: GitWorkspace, branch: str) -> bool:
    """Push HEAD to `branch` without force; False when the push was rejected because the
    branch moved first (other failures raise GitError)."""
    try:
        await workspace.push(branch)
    except GitError as err:
        if _REJECTED.search(err.stderr):
            return False
        raise
    return True


async def fetch_branch(workspace: GitWorkspace, branch: str) -> str:
    """Fetch the remote `branch` as it is now (through the mirror, when there is one); its sha."""
    await workspace.fetch_origin()
    return (await workspace.run_git("rev-parse", f"refs/remotes/origin/{branch}"))[1]


async def is_ancestor(workspace: GitWorkspace, older: str, newer: str) -> bool:
    """Whether commit `older` is in the history of `newer` (False when either is unknown)."""
    code, _ = await workspace.run_git("merge-base", "--is-ancestor", older, newer, check=False)
    return code == 0


async def merge_remote_branch(workspace: GitWorkspace, branch: str, message: str) -> list[str]:
    """Merge the fetched remote `branch` into HEAD with a merge commit (their commits stay as
    they are); the conflicted files, none when the merge is committed."""
    target = f"refs/remotes/origin/{branch}"
    merge = ("merge", "--no-ff", "--no-edit", f"--message={message}", target)
    code, _ = await workspace.run_git(*merge, check=False)
    if code == 0:
        return []
    _, out = await workspace.run_git("diff", "--name-only", "--diff-filter=U")
    conflicted = [line for line in out.splitlines() if line]
    if not conflicted:
        await workspace.abort_merge()
        raise GitError(f"git merge {target}", code, "the merge failed without a conflict")
    return conflicted


async def conclude(workspace: GitWorkspace, message: str) -> str:
    """Commit a merge whose conflicts were resolved in the working tree; its sha."""
    await workspace.run_git("add", "--all")
    await workspace.run_git("commit", "--quiet", "--no-verify", f"--message={message}")
    return await workspace.head_sha()
