"""The implementation graph's tester: the project's tests on a clean checkout, sandboxed."""

from pathlib import Path

from activities.messages import RepoRef
from activities.repo import Workspaces, apply_changes
from activities.testing.run import run_project_tests
from activities.testing.trace import watched_files
from graphs.analysis.instructions import read_instructions
from graphs.implementation.tester.gate import module_name
from graphs.schemas import FileChange, TestReport

WORKSPACE = "agent-tests"


def instruction_checks(repo_dir: Path) -> list[str]:
    """The check commands (lint, type check) the repository's instructions name."""
    return read_instructions(repo_dir).check_commands


class WorkspaceTester:
    """Runs the test command on the ticket branch with the changes written into the tree."""

    def __init__(
        self, workspaces: Workspaces, repo: RepoRef, command: str, timeout_seconds: float,
        setup_command: str | None = None, checks: list[str] | None = None,
    ) -> None:  # fmt: skip
        self._workspaces = workspaces
        self._repo = repo
        self._command = command
        self._timeout = timeout_seconds
        self._setup = setup_command
        self._checks = checks or []

    async def __call__(self, changes: list[FileChange]) -> TestReport:
        """One run: sync, write the changes, check they import, run the command (with junit)."""
        modules = {c.path: m for c in changes if not c.delete and (m := module_name(c.path))}
        async with self._workspaces.using(self._repo, WORKSPACE) as workspace:
            await workspace.sync(self._repo.branch, self._repo.base_branch)
            await apply_changes(workspace, changes)
            return await run_project_tests(
                self._workspaces.environments,
                workspace,
                self._repo.repository,
                self._command,
                self._timeout,
                self._setup,
                modules=modules,
                junit=True,
                traced=watched_files([c.path for c in changes if not c.delete]),
                checks=self._checks,
            )
