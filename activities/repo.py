"""Repository activities: each starts from the remote branch and ends by pushing."""

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities.heartbeat import heartbeating
from activities.messages import (
    CommitFilesInput,
    CommitFilesResult,
    PrepareRepositoryInput,
    PrepareRepositoryResult,
    RepoRef,
    RunTestsInput,
    RunTestsResult,
)
from activities.testing.run import run_project_tests
from graphs.schemas import FileChange
from integrations.environments.build import Environments
from integrations.git.branch_names import branch_name
from integrations.git.client import GitError, GitWorkspace
from integrations.git.mirror import GitMirror, mirror_name
from integrations.github.auth import TokenSource
from integrations.security.push_scan import Finding, PushScan, SecretsFound
from integrations.security.secrets import SecretFinder, shapes_only
from integrations.workspace.sandbox import sandbox_from

MIRRORS = ".mirrors"  # beside the tickets' directories (workflow ids never start with a dot)


class Workspaces:
    """Local clones per ticket and purpose, fed by one mirror per repository: caches only.

    One operation at a time per clone; the clones of one repository share its mirror's fetches.
    Every push is scanned first for credentials: the known shapes and, given, the worker's own.
    """

    def __init__(
        self, root: Path, token: str | TokenSource | None, author_name: str, author_email: str,
        environments: Environments | None = None, secrets: SecretFinder | None = None,
    ) -> None:  # fmt: skip
        self._root = root
        self._secrets = secrets or shapes_only()
        self._token = token
        self._author = (author_name, author_email)
        self._locks: dict[Path, asyncio.Lock] = {}
        self._mirrors: dict[str, GitMirror] = {}
        self._environments = environments

    @property
    def environments(self) -> Environments:
        """The repositories' environments (by default beside the workspaces, sandboxed as set)."""
        if self._environments is None:
            from config import get_settings  # late: activities take their clients from worker.py
            from config.sandbox import SandboxSettings

            settings = get_settings(SandboxSettings)
            self._environments = Environments(
                self._root.parent / "environments",  # beside the workspaces, in the data dir
                sandbox_from(settings),
                settings.environment_setup_timeout_seconds,
                settings.setup_hosts,
            )
        return self._environments

    def mirror(self, clone_url: str) -> GitMirror:
        """The worker's mirror of a remote (created on its first fetch)."""
        if clone_url not in self._mirrors:
            root = self._root / MIRRORS / mirror_name(clone_url)
            self._mirrors[clone_url] = GitMirror(root, clone_url, self._token)
        return self._mirrors[clone_url]

    @asynccontextmanager
    async def using(
        self, repo: RepoRef, purpose: str, approved: Iterable[Finding] = ()
    ) -> AsyncIterator[GitWorkspace]:
        """The workspace for this ticket and purpose, held exclusively while in use; its pushes
        let through the `approved` findings of the scan."""
        path = self._root / repo.workflow_id / purpose
        async with self._locks.setdefault(path, asyncio.Lock()):
            try:
                yield GitWorkspace(
                    path,
                    repo.clone_url,
                    token=self._token,
                    author_name=self._author[0],
                    author_email=self._author[1],
                    mirror=self.mirror(repo.clone_url),
                    outgoing=PushScan(self._secrets, repo.base_branch, approved),
                )
            except SecretsFound as err:
                raise ApplicationError(
                    str(err), err.details(), type="SecretsFound", non_retryable=True
                ) from err
            except GitError as err:
                # A missing repository or refused credentials will not heal by retrying.
                if err.not_found or err.auth_failed:
                    kind = "GitNotFound" if err.not_found else "GitAuthFailed"
                    raise ApplicationError(str(err), type=kind, non_retryable=True) from err
                raise


async def apply_changes(workspace: GitWorkspace, changes: list[FileChange]) -> None:
    """Write changed files and remove deleted ones in the working tree."""
    await workspace.write_files({c.path: c.content for c in changes if not c.delete})
    await workspace.delete_files([c.path for c in changes if c.delete])


class RepoActivities:
    """git work on the ticket branch."""

    def __init__(self, workspaces: Workspaces) -> None:
        self._workspaces = workspaces

    @activity.defn
    async def prepare_repository(self, inp: PrepareRepositoryInput) -> PrepareRepositoryResult:
        """Make sure the ticket branch exists on the remote (created from the base branch)."""
        branch = branch_name(inp.key, inp.summary)
        async with self._workspaces.using(inp.repo, "git") as workspace:
            if inp.from_base:
                sha = await workspace.restart_from_base(branch, inp.repo.base_branch)
            else:
                await workspace.sync(branch, inp.repo.base_branch)
                sha = await workspace.push(branch)
        return PrepareRepositoryResult(branch=branch, head_sha=sha)

    @activity.defn
    async def commit_files(self, inp: CommitFilesInput) -> CommitFilesResult:
        """Commit changes to the ticket branch and push; identical content is a no-op."""
        approved = [Finding(**f.model_dump()) for f in inp.approved_secrets]
        async with self._workspaces.using(inp.repo, "git", approved) as workspace:
            await workspace.sync(inp.repo.branch, inp.repo.base_branch)
            await apply_changes(workspace, inp.files)
            if await workspace.commit(inp.message) is None:
                return CommitFilesResult(sha=await workspace.head_sha(), changed=False)
            return CommitFilesResult(sha=await workspace.push(inp.repo.branch), changed=True)

    @activity.defn
    async def run_tests(self, inp: RunTestsInput) -> RunTestsResult:
        """Run the test command on the branch with the changes applied, for real, sandboxed."""
        async with self._workspaces.using(inp.repo, "tests") as workspace:
            await workspace.sync(inp.repo.branch, inp.repo.base_branch)
            await apply_changes(workspace, inp.changes)
            report = await heartbeating(
                run_project_tests(
                    self._workspaces.environments,
                    workspace,
                    inp.repo.repository,
                    inp.test_command,
                    inp.timeout_seconds,
                    getattr(inp, "setup_command", None),
                )
            )
        return RunTestsResult.model_validate(report.model_dump())
