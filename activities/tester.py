"""The implementation graph's tester: the project's test command on a clean checkout."""

from activities.messages import RepoRef
from activities.repo import Workspaces, apply_changes
from graphs.schemas import FileChange, TestReport

WORKSPACE = "agent-tests"


class WorkspaceTester:
    """Runs the test command on the ticket branch with the changes written into the tree."""

    def __init__(
        self, workspaces: Workspaces, repo: RepoRef, command: str, timeout_seconds: float
    ) -> None:
        self._workspaces = workspaces
        self._repo = repo
        self._command = command
        self._timeout = timeout_seconds

    async def __call__(self, changes: list[FileChange]) -> TestReport:
        """One run: sync to the remote branch, write the changes, run the command."""
        async with self._workspaces.using(self._repo, WORKSPACE) as workspace:
            await workspace.sync(self._repo.branch, self._repo.base_branch)
            await apply_changes(workspace, changes)
            result = await workspace.run_command(self._command, self._timeout)
        return TestReport(
            passed=result.exit_code == 0 and not result.timed_out,
            exit_code=result.exit_code,
            output=result.output,
            timed_out=result.timed_out,
            duration_seconds=result.duration_s,
        )
