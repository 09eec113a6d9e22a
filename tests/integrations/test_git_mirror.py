"""Workspaces fed by one mirror per remote, over real smart HTTP: fresh, shared, pushed through."""

import asyncio
import subprocess
from pathlib import Path

import pytest

from integrations.git.client import GitError, GitWorkspace
from integrations.git.mirror import GitMirror, mirror_name
from tests.integrations.test_git import BRANCH, PLAN, TOKEN, remote_head


@pytest.fixture
def remote(server: tuple[str, list[str]]) -> str:
    return f"{server[0]}/demo/calc.git"


@pytest.fixture
def mirror(tmp_path: Path, remote: str) -> GitMirror:
    return GitMirror(tmp_path / "mirrors" / mirror_name(remote), remote, token=TOKEN)


def mirrored(tmp_path: Path, mirror: GitMirror, name: str) -> GitWorkspace:
    return GitWorkspace(tmp_path / "ws" / name, mirror.remote_url, token=TOKEN, mirror=mirror)


def git_out(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


async def test_clones_fetch_from_the_mirror_and_push_to_the_remote(
    tmp_path: Path, mirror: GitMirror, repos_root: Path
) -> None:
    first = mirrored(tmp_path, mirror, "first")
    pushed = await first.commit_and_push(BRANCH, "main", PLAN, "DEMO-1: plan")
    assert pushed.changed
    assert remote_head(repos_root, BRANCH) == pushed.sha
    assert git_out(first.root, "remote", "get-url", "origin") == str(mirror.root)
    # A copy, not hardlinks: a sandboxed run given the workspace cannot reach the mirror's files.
    objects = [p for p in (first.root / ".git" / "objects").rglob("*") if p.is_file()]
    assert objects
    assert all(p.stat().st_nlink == 1 for p in objects)

    # Someone else pushes straight to the remote: the next sync through the mirror sees it.
    outsider = GitWorkspace(tmp_path / "outsider", mirror.remote_url, token=TOKEN)
    outside = await outsider.commit_and_push(BRANCH, "main", {"NOTES.md": "hi\n"}, "Notes")
    root = await first.sync(BRANCH, "main")
    assert await first.head_sha() == outside.sha
    assert (root / "NOTES.md").read_text() == "hi\n"

    second = mirrored(tmp_path, mirror, "second")
    assert (await second.sync(BRANCH, "main") / "plans" / "DEMO-1.md").is_file()
    assert "+++ b/NOTES.md" in await second.diff_against("main")
    # Fetches stay packs: a clone copies a few files, however many tickets pushed before.
    loose = [p for p in (mirror.root / "objects").glob("??/*") if p.is_file()]
    assert loose == []


async def test_concurrent_syncs_share_the_mirrors_fetches(
    tmp_path: Path, mirror: GitMirror, repos_root: Path
) -> None:
    workspaces = [mirrored(tmp_path, mirror, f"ws{n}") for n in range(6)]
    await asyncio.gather(*(ws.sync(BRANCH, "main") for ws in workspaces))
    # The first sync fetches alone; the five that asked meanwhile wait for one more fetch.
    assert mirror.fetches == 2
    heads = {await ws.head_sha() for ws in workspaces}
    assert heads == {remote_head(repos_root, "main")}

    await workspaces[0].sync(BRANCH, "main")
    assert mirror.fetches == 3  # a sync after the others still fetches afresh


async def test_restart_from_base_through_the_mirror(
    tmp_path: Path, mirror: GitMirror, repos_root: Path
) -> None:
    ws = mirrored(tmp_path, mirror, "ws")
    old = await ws.commit_and_push(BRANCH, "main", PLAN, "Plan v1")
    base = remote_head(repos_root, "main")
    assert await ws.restart_from_base(BRANCH, "main") == base
    assert remote_head(repos_root, BRANCH) == base
    assert remote_head(repos_root, f"{BRANCH}-previous") == old.sha
    assert await ws.restart_from_base(BRANCH, "main") == base  # a retry changes nothing


async def test_a_broken_mirror_is_made_anew(tmp_path: Path, mirror: GitMirror) -> None:
    ws = mirrored(tmp_path, mirror, "ws")
    await ws.sync(BRANCH, "main")
    (mirror.root / "HEAD").write_text("garbage\n")
    await ws.sync(BRANCH, "main")
    assert git_out(mirror.root, "rev-parse", "--is-bare-repository") == "true"
    assert "calc/cli.py" in await ws.list_files()


async def test_a_missing_remote_is_not_found_without_the_token(
    tmp_path: Path, server: tuple[str, list[str]]
) -> None:
    url = f"{server[0]}/demo/missing.git"
    missing = GitMirror(tmp_path / "mirrors" / mirror_name(url), url, token=TOKEN)
    with pytest.raises(GitError) as caught:
        await mirrored(tmp_path, missing, "ws").sync(BRANCH, "main")
    assert caught.value.not_found
    assert TOKEN not in str(caught.value)
    # The next try fetches again rather than trusting the failed one.
    with pytest.raises(GitError):
        await mirrored(tmp_path, missing, "ws").sync(BRANCH, "main")
    assert missing.fetches == 0


def test_mirror_names_are_readable_and_distinct() -> None:
    one = mirror_name("https://github.com/acme/calc.git")
    other = mirror_name("https://github.com/other/calc.git")
    assert one.startswith("calc-") and one.endswith(".git")
    assert one != other
    assert mirror_name("file:///x/").startswith("x-")
