"""A ticket's workspaces: one mirror of the repository feeds them; pushes go to the remote."""

import subprocess
from pathlib import Path

import pytest
from temporalio.exceptions import ApplicationError

from activities.messages import RepoRef
from activities.repo import MIRRORS, Workspaces


def remote_head(bare: str, branch: str) -> str:
    done = subprocess.run(
        ["git", f"--git-dir={bare}", "rev-parse", f"refs/heads/{branch}"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout.strip()


async def test_a_tickets_workspaces_share_one_mirror(remote: RepoRef, tmp_path: Path) -> None:
    workspaces = Workspaces(tmp_path / "workspaces", None, "t", "t@e")
    async with workspaces.using(remote, "git") as git_ws:
        await git_ws.sync(remote.branch, remote.base_branch)
        await git_ws.write_files({"NOTES.md": "notes\n"})
        sha = await git_ws.commit("Notes")
        assert sha is not None
        await git_ws.push(remote.branch)
    assert remote_head(remote.clone_url, remote.branch) == sha

    async with workspaces.using(remote, "agents") as agents:
        root = await agents.sync(remote.branch, remote.base_branch)
        assert (root / "NOTES.md").read_text() == "notes\n"
    mirror = workspaces.mirror(remote.clone_url)
    assert git_ws.mirror is agents.mirror is mirror
    assert mirror.root.parent == tmp_path / "workspaces" / MIRRORS
    assert mirror.fetches == 2  # once per sync: each still starts from the remote


async def test_a_missing_repository_fails_for_good(remote: RepoRef, tmp_path: Path) -> None:
    workspaces = Workspaces(tmp_path / "workspaces", None, "t", "t@e")
    gone = remote.model_copy(update={"clone_url": str(tmp_path / "gone.git")})
    with pytest.raises(ApplicationError) as caught:
        async with workspaces.using(gone, "git") as workspace:
            await workspace.sync(gone.branch, gone.base_branch)
    assert caught.value.type == "GitNotFound"
    assert caught.value.non_retryable
