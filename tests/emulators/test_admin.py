"""Your own repository and issues in the running emulators: pushed over git, filed over HTTP."""

import subprocess
import sys
from pathlib import Path

import httpx

from config import ROOT
from harness.processes import clean_env
from harness.serving import serve
from tests.emulators.helpers import BOT, new_emulator


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def own_repository(path: Path) -> Path:
    """A small checkout with one commit on `trunk`."""
    path.mkdir()
    git(path, "init", "--quiet", "--initial-branch=trunk")
    (path / "hello.py").write_text("def hello() -> str:\n    return 'hi'\n")
    git(path, "add", ".")
    git(path, "-c", "user.name=me", "-c", "user.email=me@example.com", "commit", "-qm", "Hello")
    return path


def emulators_cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    port = url.rsplit(":", 1)[1]
    return subprocess.run(
        [sys.executable, "-m", "emulators", *args], cwd=ROOT, capture_output=True, text=True,
        env=clean_env(TICKETSMITH_EMULATOR_PORT=port), timeout=120,
    )  # fmt: skip


def test_add_repo_pushes_a_checkout_and_add_issue_files_an_issue(tmp_path: Path) -> None:
    mine = own_repository(tmp_path / "mine")
    with serve(new_emulator(tmp_path / "state")) as url:
        added = emulators_cli(url, "add-repo", str(mine), "--as", "me/mine")
        assert added.returncode == 0, added.stderr
        assert 'repository = "me/mine"' in added.stdout and 'base_branch = "trunk"' in added.stdout
        repo = httpx.get(f"{url}/api/v3/repos/me/mine", headers=BOT).json()
        assert (repo["default_branch"], repo["clone_url"]) == ("trunk", f"{url}/me/mine.git")
        clone = tmp_path / "clone"
        git(tmp_path, "clone", "--quiet", f"{url}/me/mine.git", str(clone))
        assert (clone / "hello.py").read_text().startswith("def hello()")
        # Adding it again pushes the new commits, keeps one repository.
        assert emulators_cli(url, "add-repo", str(mine), "--as", "me/mine").returncode == 0

        filed = emulators_cli(
            url, "add-issue", "MINE", "Say hello louder", "--description", "Use **caps**.",
            "--component", "backend", "--label", "ticketsmith-demo",
        )  # fmt: skip
        assert filed.returncode == 0, filed.stderr
        assert filed.stdout.startswith("created MINE-1;")
        issue = httpx.get(f"{url}/rest/api/3/issue/MINE-1").json()
        assert issue["fields"]["summary"] == "Say hello louder"
        assert issue["fields"]["components"] == [{"name": "backend"}]
        assert issue["fields"]["project"]["key"] == "MINE"
        second = emulators_cli(url, "add-issue", "MINE", "Say goodbye")
        assert second.stdout.startswith("created MINE-2;")


def test_bad_input_is_one_clear_line(tmp_path: Path) -> None:
    with serve(new_emulator(tmp_path / "state")) as url:
        not_git = emulators_cli(url, "add-repo", str(tmp_path))
        assert not_git.returncode == 1
        assert not_git.stderr.startswith("error: ") and "not a git checkout" in not_git.stderr
        bad_key = emulators_cli(url, "add-issue", "lower", "x")
        assert bad_key.returncode == 1 and "refused: 400" in bad_key.stderr
        assert "body.project" in bad_key.stderr
