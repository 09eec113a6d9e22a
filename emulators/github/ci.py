"""An optional emulated CI: every push to a branch runs the repository's test command on the
pushed commit and reports it, so a fix round can be watched with nothing but the embedded stack.

It reports as a CI app does (a check run with the output's tail and annotations for failing
tests) or, with the `actions` reporter, as GitHub Actions does (a workflow run, its job, the
job's log and the job's check run; see `github_ci_actions.py`)."""

import asyncio
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import httpx
import structlog

from emulators.background import BackgroundWork
from emulators.github.ci_actions import ActionsReporter
from emulators.github.store import Json, bare_path, find_repo
from emulators.github.webhooks import GitHubWebhooks
from emulators.state import EmulatorState
from integrations.environments.build import Environments
from integrations.workspace.commands import CommandResult, default_sandbox, run_command

log = structlog.get_logger(__name__)
CHECK_NAME = "ci / tests"
REPORTERS = ("checks", "actions")
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

    def __init__(
        self, state: EmulatorState, repos_root: Path, hooks: GitHubWebhooks | None = None,
        reporter: str = "checks",
    ) -> None:  # fmt: skip
        if reporter not in REPORTERS:
            raise ValueError(f"unknown CI reporter {reporter!r}: use one of {REPORTERS}")
        self._state, self._repos_root, self.reporter = state, repos_root, reporter
        self.actions = ActionsReporter(state, repos_root, hooks or GitHubWebhooks(None))
        self._environments: Environments | None = None  # built on first use, like the worker's
        self.background = BackgroundWork()
        self.transport: httpx.AsyncBaseTransport | None = None  # the emulator app itself

    def pushed(self, owner: str, repo: str, moved: list[tuple[str, str]], base: str) -> None:
        """Start a run for each pushed (ref, commit), in the background."""
        r = find_repo(self._state, owner, repo)
        command = (r.get("ci") or {}).get("command")
        if not command or self.transport is None:
            return
        for ref, sha in moved:
            branch = ref.removeprefix("refs/heads/")
            if (r.get("ci") or {}).get("reporter", self.reporter) == "actions":
                self.background.start(self._actions_run(r, sha, branch, command, base))
            else:
                self.background.start(self._run(r, sha, command, base))

    def rerun(self, r: Json, run: Json, base: str) -> bool:
        """Run a workflow run's failed job again as its next attempt (`rerun-failed-jobs`, or a
        rerun of the job); the attempt is counted at once, as GitHub's API shows it."""
        command = (r.get("ci") or {}).get("command")
        if not command or self.transport is None:
            return False
        run["run_attempt"] += 1
        run.update(status="queued", conclusion=None)
        self._state.save()
        again = self._actions_run(r, run["head_sha"], run["head_branch"], command, base, run)
        self.background.start(again)
        return True

    def _api(self, base: str) -> httpx.AsyncClient:
        headers = {"Authorization": "Bearer emulated-ci"}
        return httpx.AsyncClient(
            transport=self.transport, base_url=f"{base}/api/v3", headers=headers, timeout=30
        )

    async def _actions_run(
        self, r: Json, sha: str, branch: str | None, command: str, base: str,
        again: Json | None = None,
    ) -> None:  # fmt: skip
        async def test() -> CommandResult:
            return await self.test_commit(r, sha, command)

        async with self._api(base) as api:
            conclusion = await self.actions.run(api, r, sha, branch, command, test, base, again)
        full = f"{r['owner']}/{r['name']}"
        log.info("emulated actions run finished", repository=full, sha=sha, conclusion=conclusion)

    async def test_commit(self, r: Json, sha: str, command: str) -> CommandResult:
        """Run `command` on a fresh checkout of `sha`."""
        work = Path(tempfile.mkdtemp(prefix="emulated-ci-"))
        try:
            result: CommandResult = await self._test(
                bare_path(self._repos_root, r), sha, work, command
            )
            return result
        finally:
            shutil.rmtree(work, ignore_errors=True)

    async def _run(self, r: Json, sha: str, command: str, base: str) -> None:
        full = f"{r['owner']}/{r['name']}"
        async with self._api(base) as api:
            created = await api.post(
                f"/repos/{full}/check-runs",
                json={"name": CHECK_NAME, "head_sha": sha, "status": "in_progress"},
            )
            run_id = created.json()["id"]
            result = await self.test_commit(r, sha, command)
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
        """Wait until every job has finished (tests, shutdown)."""
        await self.background.drain(timeout)

    async def aclose(self) -> None:
        """Stop the jobs still going."""
        await self.background.aclose()
