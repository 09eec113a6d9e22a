"""An optional emulated CI: every push to a branch runs the repository's test command on the
pushed commit and reports a check run (with annotations for failing tests), as GitHub Actions
would, so a fix round can be watched with nothing but the embedded stack."""

import asyncio
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import httpx
import structlog

from emulators.github_store import bare_path, find_repo
from emulators.state import EmulatorState
from integrations.commands import CommandResult, default_sandbox, run_command
from integrations.environments import Environments

log = structlog.get_logger(__name__)
CHECK_NAME = "ci / tests"
TIMEOUT_S = 600.0
OUTPUT_TAIL = 6_000
# pytest's short summary (`FAILED tests/test_x.py::test_y - why`) and tracebacks (`path:12: in`).
_FAILED = re.compile(r"^FAILED (?P<path>[\w./-]+\.py)::(?P<test>\S+)(?: - (?P<why>.*))?$", re.M)
_TRACE = re.compile(r"^(?P<path>[\w./-]+\.py):(?P<line>\d+): ", re.M)


def annotations(output: str) -> list[dict[str, Any]]:
    """Failure annotations from test output: each failing test, at the line its trace names."""
    lines = {m["path"]: int(m["line"]) for m in _TRACE.finditer(output)}
    found = []
    for match in _FAILED.finditer(output):
        path = match["path"]
        message = f"{match['test']} failed" + (f": {match['why']}" if match["why"] else "")
        line = lines.get(path, 1)
        found.append(
            {"path": path, "start_line": line, "end_line": line,
             "annotation_level": "failure", "message": message}
        )  # fmt: skip
    return found[:50]


class EmulatedCI:
    """Runs the test command of repositories that have one, reporting through the REST API."""

    def __init__(self, state: EmulatorState, repos_root: Path) -> None:
        self._state, self._repos_root = state, repos_root
        self._environments: Environments | None = None  # built on first use, like the worker's
        self._tasks: set[asyncio.Task[None]] = set()
        self.transport: httpx.AsyncBaseTransport | None = None  # the emulator app itself

    def pushed(self, owner: str, repo: str, shas: list[str]) -> None:
        """Start a run for each pushed commit, in the background."""
        r = find_repo(self._state, owner, repo)
        command = (r.get("ci") or {}).get("command")
        if not command or self.transport is None:
            return
        for sha in shas:
            task = asyncio.get_running_loop().create_task(self._run(r, sha, command))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, r: dict[str, Any], sha: str, command: str) -> None:
        full = f"{r['owner']}/{r['name']}"
        headers = {"Authorization": "Bearer emulated-ci"}
        base = "http://emulator/api/v3"
        async with httpx.AsyncClient(
            transport=self.transport, base_url=base, headers=headers, timeout=30
        ) as api:
            created = await api.post(
                f"/repos/{full}/check-runs",
                json={"name": CHECK_NAME, "head_sha": sha, "status": "in_progress"},
            )
            run_id = created.json()["id"]
            work = Path(tempfile.mkdtemp(prefix="emulated-ci-"))
            try:
                result = await self._test(bare_path(self._repos_root, r), sha, work, command)
            finally:
                shutil.rmtree(work, ignore_errors=True)
            passed = result.exit_code == 0 and not result.timed_out
            tail = result.output[-OUTPUT_TAIL:]
            output = {
                "title": "Tests pass" if passed else "Tests fail",
                "summary": f"`{command}` exited with {result.exit_code}"
                + (" (timed out)" if result.timed_out else ""),
                "text": f"```\n{tail}\n```",
                "annotations": [] if passed else annotations(result.output),
            }
            conclusion = "success" if passed else ("timed_out" if result.timed_out else "failure")
            await api.patch(
                f"/repos/{full}/check-runs/{run_id}",
                json={"status": "completed", "conclusion": conclusion, "output": output},
            )
        log.info("emulated ci finished", repository=full, sha=sha, conclusion=conclusion)

    async def _test(self, bare: Path, sha: str, work: Path, command: str) -> Any:
        clone = await asyncio.create_subprocess_exec(
            "git", "clone", "--quiet", "--no-checkout", str(bare), str(work / "repo"),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        await clone.wait()
        checkout = await asyncio.create_subprocess_exec(
            "git", "-C", str(work / "repo"), "checkout", "--quiet", sha,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        await checkout.wait()
        if self._environments is None:
            root = self._repos_root.parent / "ci-environments"
            self._environments = Environments(root, default_sandbox())
        env = await self._environments.ensure(
            work / "repo", str(bare.relative_to(self._repos_root))
        )
        if env.error or env.path is None:
            return CommandResult(
                exit_code=-1, output=env.error or "", timed_out=False, duration_s=0
            )
        sandbox = self._environments.sandbox
        return await run_command(
            work / "repo", command, TIMEOUT_S, env_dir=env.path, sandbox=sandbox
        )

    async def drain(self, timeout: float = 120) -> None:
        """Wait until every run has reported (tests, shutdown)."""
        async with asyncio.timeout(timeout):
            while self._tasks:
                await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def aclose(self) -> None:
        """Stop the runs still going."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
