"""A benign repository (one passing test) as a bare remote, and test code arriving in it as an
agent's change does: what the hostile-suite tests attack through `run_tests`."""

import subprocess
from pathlib import Path

from temporalio.testing import ActivityEnvironment

from activities.messages import RepoRef, RunTestsInput, RunTestsResult
from activities.repo import RepoActivities
from graphs.schemas import FileChange

PYPROJECT = '[project]\nname = "victim"\nversion = "0"\ndependencies = []\n'
GOOD_TEST = "def test_fine() -> None:\n    assert 1 + 1 == 2\n"


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def victim_remote(tmp_path: Path) -> RepoRef:
    """The repository as a bare remote under tmp_path, for ticket EVIL-1."""
    repo = tmp_path / "victim"
    (repo / "tests").mkdir(parents=True)
    (repo / "pyproject.toml").write_text(PYPROJECT)
    (repo / "tests" / "test_fine.py").write_text(GOOD_TEST)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "init")
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(tmp_path / "victim.git"))
    return RepoRef(
        workflow_id="ticket-EVIL-1",
        repository="demo/victim",
        clone_url=str(tmp_path / "victim.git"),
        branch="ticketsmith/EVIL-1",
        base_branch="main",
    )


# Generous wall time: on a loaded machine a second of CPU can take many seconds to accrue.
async def run_attack(
    activities: RepoActivities, remote: RepoRef, attack: str, timeout_s: int = 300
) -> RunTestsResult:
    """Run the repository's tests with `attack` added as a test file, as agent code arrives."""
    change = FileChange(path="tests/test_attack.py", content=attack)
    inp = RunTestsInput(
        repo=remote,
        changes=[change],
        test_command="python -m pytest -q -s",
        timeout_seconds=timeout_s,
    )
    return await ActivityEnvironment().run(activities.run_tests, inp)
