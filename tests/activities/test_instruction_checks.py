"""The check commands a repository's AGENTS.md names run beside its tests, in its sandboxed
environment: reported one line each, the tests' verdict left alone."""

import subprocess
from pathlib import Path

from activities.messages import RepoRef
from activities.repo import Workspaces
from activities.testing.tester import WorkspaceTester, instruction_checks
from graphs.schemas import FileChange
from integrations.environments.build import Environments
from integrations.workspace.sandbox import Limits
from tests.support.sandboxes import working_sandbox

TEST_OPS = "from calc.ops import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
AGENTS = "# Agents\n\nBefore you commit, run `ruff check .` and `mypy calc`.\n"


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def remote_with(tmp_path: Path, files: dict[str, str]) -> RepoRef:
    repo = tmp_path / "calc"
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "init")
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(tmp_path / "calc.git"))
    return RepoRef(
        workflow_id="ticket-CHK-1", repository="demo/checked", clone_url=str(tmp_path / "calc.git"),
        branch="ticketsmith/CHK-1", base_branch="main",
    )  # fmt: skip


async def test_a_check_the_instructions_name_runs_and_its_failure_is_reported(
    tmp_path: Path,
) -> None:
    repo = remote_with(
        tmp_path,
        {
            "AGENTS.md": AGENTS,
            "requirements.txt": "ruff\npytest\n",
            "calc/__init__.py": "",
            "calc/ops.py": "def add(a, b):\n    return a + b\n",
            "tests/test_ops.py": TEST_OPS,
        },
    )
    checks = instruction_checks(tmp_path / "calc")
    assert checks == ["ruff check .", "mypy calc"]
    # The product's limits, not the hostile tests' small ones: RLIMIT_NPROC counts every process
    # of the sandbox's uid, and a fork bomb under a 64-process limit elsewhere in the suite
    # would leave a 64-process check no thread to start (ruff then panics, exit code 101).
    environments = Environments(tmp_path / "environments", working_sandbox(Limits()))
    workspaces = Workspaces(tmp_path / "workspaces", None, "t", "t@e", environments)
    tester = WorkspaceTester(workspaces, repo, "python -m pytest -q", 300, None, checks)
    sloppy = FileChange(
        path="calc/ops.py", content="import os\n\n\ndef add(a, b):\n    return a + b\n"
    )
    report = await tester([sloppy])
    assert report.passed, report.output  # the tests pass: the checks do not decide that
    assert report.checks == [
        "`ruff check .`: failed (exit code 1)",
        "`mypy calc`: not run (mypy is not installed in the environment)",
    ]
    assert (
        "F401" in report.output and "[check `ruff check .`: failed (exit code 1)]" in report.output
    )
    clean = await tester([])
    assert clean.checks[0] == "`ruff check .`: passed"
