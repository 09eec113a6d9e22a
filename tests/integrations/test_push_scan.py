"""What a push would publish, read from real git: new commits' added lines, a merge's resolution."""

import subprocess
from pathlib import Path

import pytest

from integrations.git.client import GitWorkspace
from integrations.security.push_scan import Finding, PushScan, SecretsFound, added_lines
from integrations.security.secrets import SecretFinder

TOKEN = "xoxb-" + "123456789012-abcdefghijkl"  # a Slack token's shape
BRANCH = "feature"


def git(cwd: Path, *args: str) -> str:
    ident = ["-c", "user.name=t", "-c", "user.email=t@e"]
    done = subprocess.run(["git", *ident, *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    """A bare remote with `main` (app.py) and `feature` branched from it."""
    seed = tmp_path / "seed"
    seed.mkdir()
    git(seed, "init", "-q", "-b", "main")
    (seed / "app.py").write_text("A = 1\nB = 2\n")
    git(seed, "add", "-A")
    git(seed, "commit", "-qm", "init")
    git(seed, "branch", BRANCH)
    bare = tmp_path / "remote.git"
    git(tmp_path, "clone", "-q", "--bare", str(seed), str(bare))
    return bare


async def workspace(tmp_path: Path, remote: Path) -> GitWorkspace:
    ws = GitWorkspace(tmp_path / "ws", str(remote), outgoing=PushScan(SecretFinder(), "main"))
    await ws.sync(BRANCH, "main")
    return ws


def on_main(tmp_path: Path, remote: Path, content: str) -> None:
    """Someone else changes app.py on main and pushes."""
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(remote), str(other))
    (other / "app.py").write_text(content)
    git(other, "commit", "-qam", "theirs")
    git(other, "push", "-q", "origin", "main")


async def test_a_merge_of_the_base_pushes_what_the_base_already_published(
    tmp_path: Path, remote: Path
) -> None:
    on_main(tmp_path, remote, f'A = 1\nB = 2\nSLACK = "{TOKEN}"\n')
    ws = await workspace(tmp_path, remote)
    await ws.write_files({"other.py": "C = 3\n"})
    await ws.commit("ours")
    await ws.fetch_origin()
    git(ws.root, "merge", "-q", "--no-edit", "refs/remotes/origin/main")
    await ws.push(BRANCH)  # the token came from main, which the remote already has
    assert git(remote, "rev-parse", BRANCH) == await ws.head_sha()


async def test_a_conflict_resolved_with_a_credential_is_not_pushed(
    tmp_path: Path, remote: Path
) -> None:
    on_main(tmp_path, remote, "A = 10\nB = 2\n")
    ws = await workspace(tmp_path, remote)
    await ws.write_files({"app.py": "A = 100\nB = 2\n"})
    await ws.commit("ours")
    await ws.fetch_origin()
    await ws.run_git("merge", "-q", "refs/remotes/origin/main", check=False)
    await ws.write_files({"app.py": f'A = 10\nB = 2\nSLACK = "{TOKEN}"\n'})
    await ws.run_git("commit", "-qam", "merge main")
    with pytest.raises(SecretsFound) as caught:
        await ws.push(BRANCH)
    assert caught.value.findings == [Finding("app.py", 3, "Slack token")]
    assert git(remote, "rev-parse", BRANCH) != await ws.head_sha()


def test_added_lines_reads_plain_and_combined_diffs() -> None:
    log = "\n".join(
        [
            "commit 1111",
            "diff --git a/a.py b/a.py",
            "--- a/a.py",
            "+++ b/a.py",
            "@@ -2,0 +3,2 @@ def f():",
            "+x = 1",
            "+y = 2",
            "\\ No newline at end of file",
            "diff --git a/gone.py b/gone.py",
            "--- a/gone.py",
            "+++ /dev/null",
            "@@ -1 +0,0 @@",
            "-z = 3",
            "commit 2222",
            "diff --cc b.py",
            "--- a/b.py",
            "+++ b/b.py",
            "@@@ -1,1 -1,1 +1,2 @@@",
            "- ours",
            " -theirs",
            "++resolved",
            "+ from ours",
        ]
    )
    assert list(added_lines(log)) == [
        ("a.py", 3, "x = 1"),
        ("a.py", 4, "y = 2"),
        ("b.py", 1, "resolved"),
    ]
