"""A ticket whose change holds a credential pushes nothing and asks an approver, saying where,
on the time-skipping server: fake agents, the real commit activity with real git and its scan."""

import asyncio
import subprocess
from pathlib import Path

import pytest
from temporalio import activity
from temporalio.client import WorkflowFailureError
from temporalio.testing import WorkflowEnvironment

from activities.messages import (
    CommitFilesInput,
    CommitFilesResult,
    ImplementInput,
    SecretFinding,
)
from activities.repo import RepoActivities, Workspaces
from graphs.schemas import FileChange, Implementation
from integrations.security.secrets import SecretFinder
from tests.support.notices import check_row
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import (
    DEADLINE_S,
    awaiting,
    running_ticket,
    ticket_input,
    wait_until,
)
from workflows.ticket.messages import (
    ApprovalInput,
    ApprovalPolicy,
    RejectionInput,
    Status,
    TicketInput,
)
from workflows.ticket.workflow import TicketWorkflow

TOKEN = "ghp_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8"  # a GitHub token's shape
OWN = "jira-token-" + "of-the-worker-77"
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
    """Agents whose change copies a token from a log; commits go through the real activity,
    with a worker whose own Jira token is OWN."""

    def __init__(self, workspaces: Path, leak: str = TOKEN) -> None:
        super().__init__()
        finder = SecretFinder({"the worker's jira_token": OWN})
        self._repo = RepoActivities(Workspaces(workspaces, None, "t", "t@e", secrets=finder))
        self._leak = leak

    @activity.defn(name="implement_changes")
    async def implement_changes(self, inp: ImplementInput) -> Implementation:
        self.calls["implement_changes"].append(inp)
        content = f'def power(a, b):\n    """Token: {self._leak}"""\n    return a**b\n'
        change = FileChange(path=OPS, content=content)
        return Implementation(changes=[change], notes="done", tokens=20)

    @activity.defn(name="commit_files")
    async def commit_files(self, inp: CommitFilesInput) -> CommitFilesResult:
        self.calls["commit_files"].append(inp)
        return await self._repo.commit_files(inp)


def leaky_ticket(remote: Path, key: str = "LEAK-1") -> TicketInput:
    inp = ticket_input(key)
    inp.auto = True  # straight to the implementation: the push still waits for an approver
    inp.project.clone_url = str(remote)
    return inp


async def test_a_credential_waits_for_an_approver_and_goes_out_once_approved(
    time_skipping_env: WorkflowEnvironment, remote: Path, tmp_path: Path
) -> None:
    fakes = LeakyAgents(tmp_path / "workspaces")
    async with running_ticket(time_skipping_env, fakes, leaky_ticket(remote)) as handle:
        waiting = await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        assert git(remote, "show", f"{BRANCH}:{OPS}") == "def add(a, b):\n    return a + b"
        reply = await handle.execute_update(
            TicketWorkflow.approve_plan, ApprovalInput(author="bob")
        )
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)
        final = await handle.query(TicketWorkflow.status)

    assert reply.message == "Approved: the change is pushed as it is."
    assert waiting.secrets_found == [SecretFinding(path=OPS, line=2, kind="GitHub token")]
    assert f"`{OPS}` line 2 (GitHub token)" in waiting.message
    asked = fakes.said()["jira"][-2]
    assert f"- `{OPS}` line 2: GitHub token" in asked and "`/approve`" in asked
    assert all(TOKEN not in text for texts in fakes.said().values() for text in texts)
    check_row("credential held back", **fakes.said())
    assert result.status == Status.COMPLETED and result.pr_url
    assert len(fakes.calls["implement_changes"]) == 1  # the held change, not a new one
    assert TOKEN in git(remote, "show", f"{BRANCH}:{OPS}")
    assert final.secrets_found == []
    decision = final.decisions[-1]
    assert (decision.kind, decision.author) == ("approve", "bob")
    assert decision.text == "pushing what looks like a credential, as it is"


async def test_a_rejected_push_stops_the_ticket_with_nothing_pushed(
    time_skipping_env: WorkflowEnvironment, remote: Path, tmp_path: Path
) -> None:
    fakes = LeakyAgents(tmp_path / "workspaces")
    async with running_ticket(time_skipping_env, fakes, leaky_ticket(remote)) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        reason = "a real token: read it from the environment"
        reply = await handle.execute_update(
            TicketWorkflow.reject_plan, RejectionInput(reason=reason, author="carol")
        )
        assert reply.message == "Rejected: nothing is pushed; the ticket stops."
        with pytest.raises(WorkflowFailureError):
            await asyncio.wait_for(handle.result(), DEADLINE_S)
        status = await handle.query(TicketWorkflow.status)

    assert status.status == Status.FAILED
    stopped = fakes.said()["jira"][-1]
    assert stopped.startswith("Work on this ticket stopped. carol did not let")
    assert reason in stopped and not fakes.calls["open_pull_request"]
    assert git(remote, "show", f"{BRANCH}:{OPS}") == "def add(a, b):\n    return a + b"


async def test_the_workers_own_secret_stops_the_ticket_without_asking(
    time_skipping_env: WorkflowEnvironment, remote: Path, tmp_path: Path
) -> None:
    fakes = LeakyAgents(tmp_path / "workspaces", leak=OWN)
    inp = leaky_ticket(remote, "LEAK-2")
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        with pytest.raises(WorkflowFailureError):
            await asyncio.wait_for(handle.result(), DEADLINE_S)
        status = await handle.query(TicketWorkflow.status)

    where = f"`{OPS}` line 2 (the worker's jira_token)"
    assert status.status == Status.FAILED and where in status.message
    stopped = fakes.said()["jira"][-1]
    assert "one of the worker's own secret values" in stopped and where in stopped
    assert all(OWN not in text for texts in fakes.said().values() for text in texts)
    steps = [call.marker.rsplit("/", 1)[1] for call in fakes.calls["post_jira_comment"]]
    assert "secrets-found" not in steps  # nobody is asked: nothing could let it through
    assert not fakes.calls["open_pull_request"]


class FindingsThatMove(FakeActivities):
    """A branch that moved under the approved push into a finding nobody approved."""

    @activity.defn(name="commit_files")
    async def commit_files(self, inp: CommitFilesInput) -> CommitFilesResult:
        if not inp.files[0].path.startswith(".ticketsmith/"):
            line = 9 if inp.approved_secrets else 2
            self.secrets = [SecretFinding(path=OPS, line=line, kind="Slack token")]
        return await super().commit_files(inp)


async def test_an_approved_push_that_finds_more_stops_the_ticket(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FindingsThatMove()
    inp = ticket_input("LEAK-3")
    inp.auto = True
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await handle.signal(TicketWorkflow.approve, ApprovalInput(author="bob"))
        with pytest.raises(WorkflowFailureError):
            await asyncio.wait_for(handle.result(), DEADLINE_S)

    stopped = fakes.said()["jira"][-1]
    assert "after the approval the scan still found" in stopped
    assert f"`{OPS}` line 9 (Slack token)" in stopped and not fakes.calls["open_pull_request"]


async def test_only_the_projects_approvers_may_let_a_credential_through(
    time_skipping_env: WorkflowEnvironment, remote: Path, tmp_path: Path
) -> None:
    fakes = LeakyAgents(tmp_path / "workspaces")
    inp = leaky_ticket(remote, "LEAK-3")
    branch = BRANCH.replace("LEAK-1", "LEAK-3")
    inp.approval = ApprovalPolicy(approvers=["bob"])
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        refused = await handle.execute_update(
            TicketWorkflow.approve_plan, ApprovalInput(author="eve", author_ids=["eve"])
        )
        assert git(remote, "show", f"{branch}:{OPS}") == "def add(a, b):\n    return a + b"
        await handle.signal(TicketWorkflow.approve, ApprovalInput(author="Bob", author_ids=["bob"]))
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)
        final = await handle.query(TicketWorkflow.status)
    assert not refused.accepted
    assert refused.message == (
        "eve may not approve pushing what looks like a credential, as it is. Who may: bob."
    )
    assert [(d.kind, d.author) for d in final.decisions] == [("refused", "eve"), ("approve", "Bob")]
    assert result.status == Status.COMPLETED and TOKEN in git(remote, "show", f"{branch}:{OPS}")
