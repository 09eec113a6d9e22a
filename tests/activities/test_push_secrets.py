"""Credentials in a ticket's change block its push, with real git: named by file, line and kind,
never by value; the repository's base branch may allow a test fixture, never a worker's secret."""

import subprocess
from pathlib import Path

import pytest
from temporalio.exceptions import ApplicationError
from temporalio.testing import ActivityEnvironment

from activities.agents import AgentActivities
from activities.messages import CommitFilesInput, ImplementInput, RepoRef, SecretFinding
from activities.repo import RepoActivities, Workspaces
from activities.review.round_messages import CommitRoundInput
from activities.review.rounds import RoundActivities
from graphs.models import ScriptedChatModel
from graphs.schemas import FileChange, Plan, PlannedFile, TicketContext
from integrations.security.push_scan import ALLOWLIST
from integrations.security.secrets import SecretFinder
from llm.prompting import read_task
from tests.activities.test_agents import GOOD_OPS, NEW_TESTS, OPS, PASS, TESTS

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"  # a GitHub token's shape
OWN = "jira-api-token-" + "5e1f0c2b"
CONFIG = "calc/config.py"
LEAKY_CONFIG = f'"""Settings."""\n\nDEBUG = False\nGITHUB_TOKEN = "{TOKEN}"\n'


def bare_git(bare: str, *args: str) -> str:
    done = subprocess.run(
        ["git", f"--git-dir={bare}", *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def commit_to_base(remote: RepoRef, tmp_path: Path, files: dict[str, str]) -> None:
    """Someone with write access commits files on the base branch."""
    clone = tmp_path / "maintainer"
    subprocess.run(["git", "clone", "-q", remote.clone_url, str(clone)], check=True)
    for path, content in files.items():
        (clone / path).parent.mkdir(parents=True, exist_ok=True)
        (clone / path).write_text(content)
    ident = ["-c", "user.name=m", "-c", "user.email=m@e"]
    subprocess.run(["git", *ident, "add", "-A"], cwd=clone, check=True)
    subprocess.run(["git", *ident, "commit", "-qm", "allow"], cwd=clone, check=True)
    subprocess.run(["git", "push", "-q", "origin", "main"], cwd=clone, check=True)


def repo_activities(tmp_path: Path) -> RepoActivities:
    finder = SecretFinder({"the worker's Jira token": OWN})
    return RepoActivities(Workspaces(tmp_path / "workspaces", None, "t", "t@e", secrets=finder))


async def commit(tmp_path: Path, remote: RepoRef, files: dict[str, str]) -> str:
    changes = [FileChange(path=p, content=c) for p, c in files.items()]
    inp = CommitFilesInput(repo=remote, files=changes, message="CALC-7: change")
    result = await ActivityEnvironment().run(repo_activities(tmp_path).commit_files, inp)
    return result.sha


async def blocked(tmp_path: Path, remote: RepoRef, files: dict[str, str]) -> ApplicationError:
    with pytest.raises(ApplicationError) as caught:
        await commit(tmp_path, remote, files)
    return caught.value


def leaky_team() -> ScriptedChatModel:
    """Workers who copy a credential into the module they change; QA passes it."""

    def answer(messages: list) -> str:
        task, inputs = read_task(messages)
        if task == "review":
            return PASS
        content = GOOD_OPS + f'\n\nAPI_TOKEN = "{TOKEN}"\n' if inputs["path"] == OPS else NEW_TESTS
        return f"{inputs['path']}\n```python\n{content}```"

    return ScriptedChatModel([answer] * 10)


async def test_a_models_change_with_a_credential_is_not_pushed(
    remote: RepoRef, ticket: TicketContext, tmp_path: Path
) -> None:
    files = [PlannedFile(path=p, action="modify", purpose=f"Change {p}.") for p in (OPS, TESTS)]
    plan = Plan(version=1, summary="Add subtract.", files=files, test_plan=[], risks=[],
                markdown="# Plan")  # fmt: skip
    workspaces = Workspaces(tmp_path / "workspaces", None, "t", "t@e")
    implementation = await ActivityEnvironment().run(
        AgentActivities(leaky_team(), workspaces).implement_changes,
        ImplementInput(repo=remote, ticket=ticket, plan=plan),
    )
    before = bare_git(remote.clone_url, "rev-parse", "refs/heads/main")
    inp = CommitFilesInput(repo=remote, files=implementation.changes, message="CALC-7: subtract")
    with pytest.raises(ApplicationError) as caught:
        await ActivityEnvironment().run(RepoActivities(workspaces).commit_files, inp)
    err = caught.value
    line = GOOD_OPS.count("\n") + 3
    assert err.type == "SecretsFound" and err.non_retryable
    assert f"`{OPS}` line {line} (GitHub token)" in err.message
    assert TOKEN not in err.message and TOKEN not in str(err.details)
    assert err.details[0] == [{"path": OPS, "line": line, "kind": "GitHub token", "own": False}]
    branches = bare_git(remote.clone_url, "branch", "--list", remote.branch)
    assert branches == ""  # nothing reached the remote
    assert bare_git(remote.clone_url, "rev-parse", "refs/heads/main") == before


async def test_the_message_names_each_file_and_line(remote: RepoRef, tmp_path: Path) -> None:
    err = await blocked(tmp_path, remote, {CONFIG: LEAKY_CONFIG, "notes.md": f"see {OWN}\n"})
    assert "`calc/config.py` line 4 (GitHub token)" in err.message
    assert "`notes.md` line 1 (the worker's Jira token)" in err.message
    assert OWN not in err.message and TOKEN not in err.message
    assert f"`{ALLOWLIST}`" in err.message and "pragma: allowlist secret" in err.message


async def test_a_fixture_the_base_branch_allows_is_pushed(remote: RepoRef, tmp_path: Path) -> None:
    commit_to_base(remote, tmp_path, {ALLOWLIST: "# test fixtures\ntests/fixtures/*\n"})
    fixture = f'SAMPLE = "{TOKEN}"\n'
    pragma = f'EXAMPLE = "{TOKEN}"  # pragma: allowlist secret\n'
    sha = await commit(
        tmp_path, remote, {"tests/fixtures/tokens.py": fixture, "docs/example.py": pragma}
    )
    assert bare_git(remote.clone_url, "rev-parse", f"refs/heads/{remote.branch}") == sha


async def test_a_change_cannot_allow_its_own_credentials(remote: RepoRef, tmp_path: Path) -> None:
    err = await blocked(tmp_path, remote, {ALLOWLIST: "calc/*\n", CONFIG: LEAKY_CONFIG})
    assert "`calc/config.py` line 4 (GitHub token)" in err.message


async def test_nothing_allows_a_worker_secret(remote: RepoRef, tmp_path: Path) -> None:
    commit_to_base(remote, tmp_path, {ALLOWLIST: "tests/*\n"})
    leak = f'JIRA = "{OWN}"  # pragma: allowlist secret\n'
    err = await blocked(tmp_path, remote, {"tests/conftest.py": leak})
    assert "`tests/conftest.py` line 1 (the worker's Jira token)" in err.message


async def test_credentials_already_on_the_remote_do_not_block(
    remote: RepoRef, tmp_path: Path
) -> None:
    commit_to_base(remote, tmp_path, {"legacy/settings.py": LEAKY_CONFIG})
    sha = await commit(tmp_path, remote, {"legacy/settings.py": LEAKY_CONFIG + "DEBUG = True\n"})
    assert bare_git(remote.clone_url, "rev-parse", f"refs/heads/{remote.branch}") == sha


async def test_a_review_rounds_commit_with_a_credential_is_not_pushed(
    remote: RepoRef, tmp_path: Path
) -> None:
    start = await commit(tmp_path, remote, {"NOTES.md": "notes\n"})
    rounds = RoundActivities(
        ScriptedChatModel([]), Workspaces(tmp_path / "rounds", None, "t", "t@e")
    )
    files = [FileChange(path=CONFIG, content=LEAKY_CONFIG)]
    inp = CommitRoundInput(repo=remote, key="CALC-7", files=files, message="CALC-7: review round")
    with pytest.raises(ApplicationError) as caught:
        await ActivityEnvironment().run(rounds.commit_round_changes, inp)
    assert caught.value.type == "SecretsFound" and caught.value.non_retryable
    assert "`calc/config.py` line 4 (GitHub token)" in caught.value.message
    assert bare_git(remote.clone_url, "rev-parse", f"refs/heads/{remote.branch}") == start


async def test_findings_an_approver_let_through_are_pushed_and_no_others(
    remote: RepoRef, tmp_path: Path
) -> None:
    approved = [SecretFinding(path=CONFIG, line=4, kind="GitHub token")]
    changes = [FileChange(path=CONFIG, content=LEAKY_CONFIG)]
    inp = CommitFilesInput(repo=remote, files=changes, message="m", approved_secrets=approved)
    result = await ActivityEnvironment().run(repo_activities(tmp_path).commit_files, inp)
    assert bare_git(remote.clone_url, "rev-parse", f"refs/heads/{remote.branch}") == result.sha

    # Another approved finding goes through; the worker's own value never does.
    more = LEAKY_CONFIG + f'OTHER = "{TOKEN}"\nJIRA = "{OWN}"\n'
    mine = SecretFinding(path=CONFIG, line=6, kind="the worker's Jira token", own=True)
    other = SecretFinding(path=CONFIG, line=5, kind="GitHub token")
    inp = CommitFilesInput(
        repo=remote, files=[FileChange(path=CONFIG, content=more)], message="m",
        approved_secrets=[other, mine],
    )  # fmt: skip
    with pytest.raises(ApplicationError) as caught:
        await ActivityEnvironment().run(repo_activities(tmp_path).commit_files, inp)
    assert caught.value.details[0] == [mine.model_dump()]
