"""A tester for graph tests: copies a repository, applies the changes and runs a command."""

import asyncio
import os
import shlex
import shutil
import sys
import time
from pathlib import Path

from activities.testcases import JUNIT_PATH, with_cases, with_junit
from graphs.schemas import FileChange, TestReport
from integrations.junit import read_junit

OUTPUT_LIMIT = 8000


class LocalTester:
    """Runs `command` in a fresh copy of `repo_dir` with the changes written into it."""

    def __init__(self, repo_dir: Path, scratch: Path, command: str, timeout_s: float = 60) -> None:
        self.repo_dir, self.scratch, self.command, self.timeout_s = (
            repo_dir,
            scratch,
            command,
            timeout_s,
        )
        self.runs: list[list[FileChange]] = []

    async def __call__(self, changes: list[FileChange]) -> TestReport:
        """One run of the command."""
        self.runs.append(changes)
        work = self.scratch / f"run-{len(self.runs)}"
        shutil.copytree(self.repo_dir, work)
        for change in changes:
            target = work / change.path
            if change.delete:
                target.unlink(missing_ok=True)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(change.content)
        argv = shlex.split(with_junit(self.command))
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
        return with_cases(report, read_junit(work / JUNIT_PATH))
