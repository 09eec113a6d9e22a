"""The implementation graph's tester: the project's test command on a clean checkout."""

import shlex
from pathlib import Path

from activities.messages import RepoRef
from activities.repo import Workspaces, apply_changes
from graphs.implementation.gate import module_name
from graphs.schemas import FailedTest, FileChange, TestReport
from integrations.commands import CommandResult
from integrations.junit import CaseResult, read_junit

WORKSPACE = "agent-tests"
JUNIT_PATH = ".ticketsmith-junit.xml"
MAX_PASSED_IDS = 500
MAX_FAILED = 25
DETAILS_CHARS = 1500
# Imports each module named on its command line; prints "module<TAB>error" for each that fails.
IMPORT_CHECK = (
    "import importlib, sys, traceback\n"
    "for name in sys.argv[1:]:\n"
    "    try:\n"
    "        importlib.import_module(name)\n"
    "    except BaseException as err:\n"
    "        last = traceback.format_exception_only(type(err), err)[-1].strip()\n"
    "        print(name + '\\t' + last.replace('\\n', ' '))\n"
)


def with_junit(command: str) -> str:
    """The command asking pytest for a junit XML report (other runners are left as they are)."""
    argv = shlex.split(command)
    if not any(Path(arg).name in ("pytest", "py.test") for arg in argv[:3]):
        return command
    return shlex.join([*argv, f"--junitxml={JUNIT_PATH}", "-o", "junit_family=xunit1"])


def failed_test(case: CaseResult) -> FailedTest:
    """A failing case as the graph sees it: bounded details."""
    details = case.details if len(case.details) <= DETAILS_CHARS else case.details[-DETAILS_CHARS:]
    return FailedTest(test_id=case.test_id, file=case.file, message=case.message, details=details)


def report_of(result: CommandResult, cases: list[CaseResult]) -> TestReport:
    """A test report from the command's result and the cases of its junit report."""
    failed = [c for c in cases if c.outcome in ("failed", "error")]
    return TestReport(
        passed=result.exit_code == 0 and not result.timed_out,
        exit_code=result.exit_code,
        output=result.output,
        timed_out=result.timed_out,
        duration_seconds=result.duration_s,
        passed_tests=[c.test_id for c in cases if c.outcome == "passed"][:MAX_PASSED_IDS],
        failed_tests=[failed_test(c) for c in failed[:MAX_FAILED]],
    )


def import_errors(output: str, modules: dict[str, str]) -> dict[str, str]:
    """Changed files whose module failed to import, with the error, from the check's output."""
    by_module = {module: path for path, module in modules.items()}
    errors: dict[str, str] = {}
    for line in output.splitlines():
        module, _, error = line.partition("\t")
        if module in by_module and error:
            errors[by_module[module]] = error
    return errors


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
        """One run: sync, write the changes, check they import, run the command."""
        modules = {c.path: m for c in changes if not c.delete and (m := module_name(c.path))}
        async with self._workspaces.using(self._repo, WORKSPACE) as workspace:
            await workspace.sync(self._repo.branch, self._repo.base_branch)
            await apply_changes(workspace, changes)
            if modules:
                check = shlex.join(["python", "-c", IMPORT_CHECK, *modules.values()])
                checked = await workspace.run_command(check, self._timeout)
                errors = import_errors(checked.output, modules)
                if errors:
                    return TestReport(
                        passed=False,
                        exit_code=checked.exit_code or 1,
                        output=checked.output,
                        import_errors=errors,
                    )
            junit = workspace.root / JUNIT_PATH
            junit.unlink(missing_ok=True)
            result = await workspace.run_command(with_junit(self._command), self._timeout)
            cases = read_junit(junit)
            junit.unlink(missing_ok=True)
        return report_of(result, cases)
