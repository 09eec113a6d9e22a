"""GitWorkspace against a seeded bare repository, over real smart HTTP and over file://."""

import asyncio
import base64
import subprocess
from pathlib import Path
from typing import Any

import pytest

from integrations.git.branch_names import branch_name
from integrations.git.client import GitError, GitWorkspace

TOKEN = "ghp_s3cr3t-token-value"
BASIC = base64.b64encode(f"x-access-token:{TOKEN}".encode()).decode()
BRANCH = "ticketsmith/DEMO-1-add-power"
PLAN = {"plans/DEMO-1.md": "# Plan\n\nAdd power().\n"}


@pytest.fixture(params=["http", "file"])
def remote(request: pytest.FixtureRequest, repos_root: Path) -> str:
    if request.param == "file":
        return f"file://{repos_root / 'demo' / 'calc.git'}"
    base_url, _ = request.getfixturevalue("server")
    return f"{base_url}/demo/calc.git"


def workspace(tmp_path: Path, remote: str, name: str = "ws") -> GitWorkspace:
    return GitWorkspace(tmp_path / "workspaces" / name, remote, token=TOKEN)


def remote_head(repos_root: Path, branch: str) -> str:
    bare = repos_root / "demo" / "calc.git"
    done = subprocess.run(
        ["git", f"--git-dir={bare}", "rev-parse", f"refs/heads/{branch}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("key", "summary", "expected"),
    [
        ("DEMO-1", "Add power(base, exponent)!", "ticketsmith/DEMO-1-add-power-base-exponent"),
        ("DEMO-2", "Café crème: ÜBER fix", "ticketsmith/DEMO-2-cafe-creme-uber-fix"),
        (
            "DEMO-3",
            "Support the calculator with many more operations please now",
            "ticketsmith/DEMO-3-support-the-calculator-with-many-more",
        ),
        ("DEMO-4", "!!!", "ticketsmith/DEMO-4"),
        ("DEMO-5", "x" * 60, "ticketsmith/DEMO-5-" + "x" * 40),
    ],
)
def test_branch_name(key: str, summary: str, expected: str) -> None:
    assert branch_name(key, summary) == expected


async def test_sync_creates_branch_from_base(tmp_path: Path, remote: str, repos_root: Path) -> None:
    ws = workspace(tmp_path, remote)
    root = await ws.sync(BRANCH, "main")
    assert root == ws.root
    assert await ws.head_sha() == remote_head(repos_root, "main")
    assert (root / ".git" / "HEAD").read_text().strip() == f"ref: refs/heads/{BRANCH}"
    assert "calc/operations.py" in await ws.list_files()

    assert await ws.push(BRANCH) == remote_head(repos_root, "main")
    assert remote_head(repos_root, BRANCH) == remote_head(repos_root, "main")


async def test_commit_and_push_is_idempotent_and_visible_elsewhere(
    tmp_path: Path, remote: str, repos_root: Path
) -> None:
    ws = workspace(tmp_path, remote)
    first = await ws.commit_and_push(BRANCH, "main", PLAN, "DEMO-1: plan")
    assert first.changed
    assert remote_head(repos_root, BRANCH) == first.sha

    again = await ws.commit_and_push(BRANCH, "main", PLAN, "DEMO-1: plan")
    assert not again.changed
    assert again.sha == first.sha
    assert await ws.push(BRANCH) == first.sha

    other = workspace(tmp_path, remote, "other")
    root = await other.sync(BRANCH, "main")
    assert (root / "plans" / "DEMO-1.md").read_text() == PLAN["plans/DEMO-1.md"]
    assert await other.head_sha() == first.sha
    diff = await other.diff_against("main")
    assert "+++ b/plans/DEMO-1.md" in diff
    assert "+Add power()." in diff
    assert "diff trimmed" in await other.diff_against("main", limit=20)
    assert (await other.commit_and_push(BRANCH, "main", PLAN, "again")).sha == first.sha


async def test_sync_discards_local_state(tmp_path: Path, remote: str, repos_root: Path) -> None:
    ws = workspace(tmp_path, remote)
    root = await ws.sync(BRANCH, "main")
    await ws.write_files({"calc/operations.py": "broken\n", "junk/new.txt": "x"})
    assert await ws.commit("local only") is not None
    (root / "untracked.pyc").write_bytes(b"\0")

    await ws.sync(BRANCH, "main")
    assert await ws.head_sha() == remote_head(repos_root, "main")
    assert "def add" in (root / "calc" / "operations.py").read_text()
    assert not (root / "junk").exists()
    assert not (root / "untracked.pyc").exists()


async def test_sync_replaces_a_broken_workspace(tmp_path: Path, remote: str) -> None:
    ws = workspace(tmp_path, remote)
    ws.root.mkdir(parents=True)
    (ws.root / "leftover.txt").write_text("not a clone")
    await ws.sync(BRANCH, "main")
    assert not (ws.root / "leftover.txt").exists()

    (ws.root / ".git" / "HEAD").write_text("garbage\n")
    await ws.sync(BRANCH, "main")
    assert "calc/cli.py" in await ws.list_files()


async def test_write_and_delete_files(tmp_path: Path, remote: str) -> None:
    ws = workspace(tmp_path, remote)
    await ws.sync(BRANCH, "main")
    for bad in ["../escape.txt", "/etc/passwd", ".git/config", "a/../../x", "", "."]:
        with pytest.raises(ValueError):
            await ws.write_files({"ok.txt": "fine", bad: "nope"})
    assert not (ws.root / "ok.txt").exists()
    assert not (tmp_path / "workspaces" / "escape.txt").exists()

    await ws.delete_files(["calc/__main__.py", "does/not/exist.py"])
    assert await ws.commit("Remove the entry point") is not None
    assert "calc/__main__.py" not in await ws.list_files()
    assert await ws.commit("nothing") is None


async def test_missing_base_branch_is_clear(tmp_path: Path, remote: str) -> None:
    with pytest.raises(GitError, match="base branch 'develop' does not exist") as caught:
        await workspace(tmp_path, remote).sync(BRANCH, "develop")
    assert caught.value.not_found


async def test_token_only_travels_in_the_environment(
    tmp_path: Path,
    server: tuple[str, list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    base_url, seen = server
    calls: list[tuple[tuple[str, ...], dict[str, str]]] = []
    real_exec = asyncio.create_subprocess_exec

    async def recording(*argv: str, **kwargs: Any) -> asyncio.subprocess.Process:
        calls.append((argv, kwargs.get("env") or {}))
        return await real_exec(*argv, **kwargs)

    monkeypatch.setattr(asyncio, "create_subprocess_exec", recording)
    ws = workspace(tmp_path, f"{base_url}/demo/calc.git")
    await ws.commit_and_push(BRANCH, "main", PLAN, "DEMO-1: plan")

    git_calls = [(argv, env) for argv, env in calls if argv[0] == "git" and "push" in argv]
    assert git_calls
    for argv, _ in calls:
        assert not any(TOKEN in arg or BASIC in arg for arg in argv)
    assert git_calls[0][1]["GIT_CONFIG_VALUE_0"] == f"Authorization: Basic {BASIC}"
    assert f"Basic {BASIC}" in seen

    missing = workspace(tmp_path, f"{base_url}/demo/missing.git", "missing")
    with pytest.raises(GitError) as caught:
        await missing.sync(BRANCH, "main")
    assert caught.value.not_found
    assert "not found" in str(caught.value)
    for text in (str(caught.value), caught.value.command, caught.value.stderr):
        assert TOKEN not in text
        assert BASIC not in text


async def test_git_error_redacts_secrets_echoed_by_git(tmp_path: Path) -> None:
    url = f"file://{tmp_path}/nothing-{TOKEN}.git"
    with pytest.raises(GitError) as caught:
        await workspace(tmp_path, url).sync(BRANCH, "main")
    assert TOKEN not in str(caught.value)
    assert caught.value.not_found


async def test_restart_from_base_takes_the_bases_new_commits_and_keeps_the_old_head(
    tmp_path: Path, remote: str, repos_root: Path
) -> None:
    first = workspace(tmp_path, remote, "first")
    old = await first.commit_and_push(BRANCH, "main", PLAN, "Plan v1")
    # Someone lands a new test on the base after the first run.
    other = workspace(tmp_path, remote, "other")
    await other.sync("main", "main")
    await other.write_files({"tests/test_new.py": "def test_new() -> None:\n    assert False\n"})
    new_base = await other.commit("A new failing test")
    assert new_base is not None
    await other.push("main")

    restarted = workspace(tmp_path, remote, "restart")
    sha = await restarted.restart_from_base(BRANCH, "main")
    assert sha == new_base == remote_head(repos_root, BRANCH)
    assert (restarted.root / "tests" / "test_new.py").exists()
    assert not (restarted.root / "plans" / "DEMO-1.md").exists()
    assert remote_head(repos_root, f"{BRANCH}-previous") == old.sha
    # A retry changes nothing and keeps the old head's copy.
    assert await restarted.restart_from_base(BRANCH, "main") == new_base
    assert remote_head(repos_root, f"{BRANCH}-previous") == old.sha
