"""A tester for graphs run outside a worker: the repository copied, the changes, a command."""

import asyncio
import os
import shlex
import shutil
import sys
import time
from pathlib import Path

from activities.testing.cases import (
    JUNIT_PATH,
    import_check_command,
    import_errors,
    with_cases,
    with_junit,
)
from activities.testing.trace import (
    read_traces,
    trace_command,
    traced_tests,
    watched_files,
    with_traces,
)
from graphs.implementation.tester.gate import module_name
from graphs.schemas import FileChange, TestReport
from integrations.workspace.junit import read_junit

OUTPUT_LIMIT = 8000


def write_changes(root: Path, changes: list[FileChange]) -> None:
    """Write the changes into the tree at `root`: files created or replaced, or deleted."""
    for change in changes:
        target = root / change.path
        if change.delete:
            target.unlink(missing_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(change.content)


class LocalTester:
    """Runs `command` in a fresh copy of `repo_dir` with the changes written into it."""

    def __init__(
        self, repo_dir: Path, scratch: Path, command: str, timeout_s: float = 60,
        check_imports: bool = False, trace: bool = True,
    ) -> None:  # fmt: skip
        self.repo_dir, self.scratch, self.command, self.timeout_s = (
            repo_dir,
            scratch,
            command,
            timeout_s,
        )
        self.check_imports = check_imports  # as the workspace tester does, before the tests
        self.trace = trace  # failing tests rerun traced, as the workspace tester does
        self.runs: list[list[FileChange]] = []

    async def __call__(self, changes: list[FileChange]) -> TestReport:
        """One run of the command."""
        self.runs.append(changes)
        work = self.scratch / f"run-{len(self.runs)}"
        shutil.copytree(self.repo_dir, work)
        write_changes(work, changes)
        modules = {c.path: m for c in changes if not c.delete and (m := module_name(c.path))}
        if self.check_imports and modules:
            check = await self._run(shlex.split(import_check_command(modules)), work)
            errors = import_errors(check.output, modules)
            if errors:
                return check.model_copy(update={"passed": False, "import_errors": errors})
        report = with_cases(
            await self._run(shlex.split(with_junit(self.command)), work),
            read_junit(work / JUNIT_PATH),
        )
        watched = watched_files([c.path for c in changes if not c.delete])
        tests = traced_tests(report, watched) if self.trace else []
        if not tests:
            return report
        trace = await self._run(shlex.split(trace_command(tests, watched)), work)
        return with_traces(report, read_traces(trace.output))

    async def _run(self, argv: list[str], work: Path) -> TestReport:
        """One command in the copy, with its output and exit code."""
        if argv[0] == "python":
            argv[0] = sys.executable
        started = time.monotonic()
        proc = await asyncio.create_subprocess_exec(
            *argv,
            cwd=work,
            env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},  # starts in well under 1 s
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), self.timeout_s)
            timed_out = False
        except TimeoutError:
            proc.kill()
            out, timed_out = b"", True
        report = TestReport(
            passed=proc.returncode == 0 and not timed_out,
            exit_code=proc.returncode if proc.returncode is not None else -1,
            output=out.decode(errors="replace")[-OUTPUT_LIMIT:],
            timed_out=timed_out,
            duration_seconds=round(time.monotonic() - started, 3),
        )
        return report
