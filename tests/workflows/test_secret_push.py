"""A ticket whose change holds a credential stops before it pushes and says where, on the
time-skipping server: fake agents, the real commit activity with real git and its scan."""

import asyncio
import subprocess
from pathlib import Path

import pytest
from temporalio import activity
from temporalio.client import WorkflowFailureError
from temporalio.testing import WorkflowEnvironment

from activities.messages import CommitFilesInput, CommitFilesResult, ImplementInput
from activities.repo import RepoActivities, Workspaces
from graphs.schemas import FileChange, Implementation
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import DEADLINE_S, running_ticket, ticket_input
from workflows.messages import Status
from workflows.ticket import TicketWorkflow

TOKEN = "ghp_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8"  # a GitHub token's shape
OPS = "calc/operations.py"
BRANCH = "ticketsmith/LEAK-1-add-power"


def git(cwd: Path, *args: str) -> str:
    ident = ["-c", "user.name=t", "-c", "user.email=t@e"]
    done = subprocess.run(["git", *ident, *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    """A bare remote holding the calculator's `main`."""
    seed = tmp_path / "seed"
    (seed / "calc").mkdir(parents=True)
    (seed / OPS).write_text("def add(a, b):\n    return a + b\n")
    git(seed, "init", "-q", "-b", "main")
    git(seed, "add", "-A")
    git(seed, "commit", "-qm", "init")
    git(tmp_path, "clone", "-q", "--bare", str(seed), str(tmp_path / "calc.git"))
    return tmp_path / "calc.git"


class LeakyAgents(FakeActivities):
    """Agents whose change copies a token from a log; commits go through the real activity."""

    def __init__(self, workspaces: Path) -> None:
        super().__init__()
        self._repo = RepoActivities(Workspaces(workspaces, None, "t", "t@e"))

    @activity.defn(name="implement_changes")
    async def implement_changes(self, inp: ImplementInput) -> Implementation:
        self.calls["implement_changes"].append(inp)
        content = f'def power(a, b):\n    """Token: {TOKEN}"""\n    return a**b\n'
        change = FileChange(path=OPS, content=content)
        return Implementation(changes=[change], notes="done", tokens=20)

    @activity.defn(name="commit_files")
    async def commit_files(self, inp: CommitFilesInput) -> CommitFilesResult:
        self.calls["commit_files"].append(inp)
        return await self._repo.commit_files(inp)


async def test_a_change_with_a_credential_stops_the_ticket_before_its_push(
    time_skipping_env: WorkflowEnvironment, remote: Path, tmp_path: Path
) -> None:
    fakes = LeakyAgents(tmp_path / "workspaces")
    inp = ticket_input("LEAK-1")
    inp.auto = True
    inp.project.clone_url = str(remote)
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        with pytest.raises(WorkflowFailureError):
            await asyncio.wait_for(handle.result(), DEADLINE_S)
        status = await handle.query(TicketWorkflow.status)

    where = f"`{OPS}` line 2 (GitHub token)"
    assert status.status == Status.FAILED
    assert where in status.message and TOKEN not in status.message
    stopped = fakes.said()["jira"][-1]
    assert stopped.startswith(f"Work on this ticket stopped. Nothing was pushed to `{BRANCH}`")
    assert where in stopped and ".ticketsmith/secrets-allowed" in stopped
    assert where in fakes.said()["discord"][-1]
    said = fakes.said()
    assert all(TOKEN not in text for texts in said.values() for text in texts)
    assert not fakes.calls["open_pull_request"]
    # The plan went out; the change did not.
    assert git(remote, "show", f"{BRANCH}:{OPS}") == "def add(a, b):\n    return a + b"
    assert git(remote, "ls-tree", "-r", "--name-only", BRANCH).splitlines() == [
        ".ticketsmith/LEAK-1-plan.md",
        OPS,
    ]
