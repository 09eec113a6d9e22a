"""git through the real git CLI: a local clone used as a cache, every operation from the remote.

With a mirror (`integrations/git/mirror.py`) a clone fetches from it and pushes to the remote.

Credentials reach git only through the environment (an `http.extraHeader`), never argv or URLs.
"""

import asyncio
import base64
import os
import re
import shlex
import shutil
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel

from integrations.git.errors import GitError, auth_refused
from integrations.github.auth import StaticToken, TokenSource, repository_of_remote
from integrations.workspace.commands import CommandResult, kill_group, run_command
from integrations.workspace.sandbox import Sandbox

GIT_TIMEOUT_S = 300.0
DIFF_LIMIT = 20_000


class Mirror(Protocol):
    """A local copy of the remote that workspaces fetch from (`integrations.git.mirror`)."""

    def fresh(self) -> AbstractAsyncContextManager[Path]:
        """Hold the copy, fetched after this call, while a workspace reads it."""
        ...


class OutgoingCheck(Protocol):
    """What a workspace checks before it pushes (`integrations.security.push_scan`)."""

    async def check(self, workspace: "GitWorkspace", branch: str) -> None:
        """Raise when what HEAD would push to `branch` must not leave."""
        ...


class CommitResult(BaseModel):
    """The branch head after a commit-and-push, and whether anything changed."""

    sha: str
    changed: bool


class GitWorkspace:
    """A local clone of one remote; methods are not safe to run concurrently on one root."""

    def __init__(
        self,
        root: Path,
        remote_url: str,
        token: str | TokenSource | None = None,
        author_name: str = "ticketsmith",
        author_email: str = "ticketsmith@example.com",
        mirror: Mirror | None = None,
        outgoing: OutgoingCheck | None = None,
    ) -> None:
        self.root = root
        self.remote_url = remote_url
        self.mirror = mirror
        self.outgoing = outgoing
        self._author = (author_name, author_email)
        self._tokens = StaticToken(token) if isinstance(token, str) else token
        self._repository = repository_of_remote(remote_url)
        self._secrets: list[str] = []

    def git_env(self, token: str | None = None) -> dict[str, str]:
        """The environment a git command runs with, `token` (if any) in an HTTP header."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        name, email = self._author
        env.update(
            GIT_TERMINAL_PROMPT="0",
            GIT_AUTHOR_NAME=name,
            GIT_AUTHOR_EMAIL=email,
            GIT_COMMITTER_NAME=name,
            GIT_COMMITTER_EMAIL=email,
        )
        if token:
            # GitHub's documented form for git over HTTPS: x-access-token:<token>.
            basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
            self._secrets.extend(s for s in (token, basic) if s not in self._secrets)
            env.update(
                GIT_CONFIG_COUNT="1",
                GIT_CONFIG_KEY_0="http.extraHeader",
                GIT_CONFIG_VALUE_0=f"Authorization: Basic {basic}",
            )
        return env

    def git_argv(self, *args: str) -> list[str]:
        """The argv of a git command (never holds credentials)."""
        # The sandbox may own the working tree (it runs as another uid when the worker is root).
        options = ["-c", "safe.directory=*", "-c", "commit.gpgsign=false"]
        # Code run in the working tree never makes the worker's own git run something.
        options += ["-c", "credential.helper=", "-c", "core.hooksPath=/dev/null"]
        options += ["-c", "core.fsmonitor=false"]
        if self.mirror:  # fetched from the mirror, pushed to the remote (the URL holds no secret)
            options += ["-c", f"remote.origin.pushurl={self.remote_url}"]
        return ["git", *options, *args]

    def _redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return re.sub(r"://[^/@\s]+@", "://***@", text)

    async def _git(
        self, *args: str, cwd: Path | None = None, stdin: bytes | None = None, check: bool = True
    ) -> tuple[int, str]:
        """Run git and return (exit code, stdout); raise GitError on failure when check.

        A refused token is renewed once (a GitHub App's installation token expired).
        """
        token = await self._tokens.token(self._repository) if self._tokens else None
        code, out, err = await self._run(args, cwd, stdin, token)
        if code != 0 and token and self._tokens and auth_refused(err):
            self._tokens.expire(self._repository, token)
            renewed = await self._tokens.token(self._repository)
            if renewed != token:
                code, out, err = await self._run(args, cwd, stdin, renewed)
        if check and code != 0:
            command = self._redact(shlex.join(["git", *args]))
            raise GitError(command, code, self._redact(err))
        return code, out

    async def _run(
        self, args: tuple[str, ...], cwd: Path | None, stdin: bytes | None, token: str | None
    ) -> tuple[int, str, str]:
        """One git process: (exit code, stdout stripped, stderr)."""
        proc = await asyncio.create_subprocess_exec(
            *self.git_argv(*args),
            cwd=cwd or self.root,
            env=self.git_env(token),
            stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
        try:
            out, err = await asyncio.wait_for(proc.communicate(stdin), GIT_TIMEOUT_S)
        except BaseException:
            kill_group(proc)
            await proc.wait()
            raise
        code = proc.returncode if proc.returncode is not None else -1
        return code, out.decode(errors="replace").strip(), err.decode(errors="replace")

    async def run_git(
        self, *args: str, check: bool = True, cwd: Path | None = None
    ) -> tuple[int, str]:
        """Run git (in the workspace unless `cwd`): (exit code, stdout); GitError when it fails."""
        return await self._git(*args, cwd=cwd, check=check)

    async def _is_healthy_clone(self) -> bool:
        if not (self.root / ".git").is_dir():
            return False
        code, top = await self._git("rev-parse", "--show-toplevel", check=False)
        return code == 0 and Path(top).resolve() == self.root.resolve()

    async def fetch_origin(self) -> None:
        """Bring the remote's branches as they are now into `refs/remotes/origin/`."""
        if self.mirror is None:
            await self._update_from(self.remote_url)
        else:
            async with self.mirror.fresh() as source:
                await self._update_from(str(source))

    async def sync(self, branch: str, base: str) -> Path:
        """Make the workspace equal the remote `branch` (or `base` when branch is new)."""
        await self.fetch_origin()
        start = f"refs/remotes/origin/{branch}"
        if not await self._ref_exists(start):
            start = f"refs/remotes/origin/{base}"
            if not await self._ref_exists(start):
                missing = f"base branch '{base}' does not exist on the remote"
                raise GitError(f"git checkout {base}", 128, missing)
        await self._git("checkout", "--quiet", "--force", "-B", branch, start)
        await self._git("reset", "--quiet", "--hard", start)
        await self._git("clean", "-fdxq")
        return self.root

    async def _update_from(self, source: str) -> None:
        """Fetch `source` into the clone, or clone it when there is no healthy clone."""
        if await self._is_healthy_clone():
            (self.root / ".git" / "index.lock").unlink(missing_ok=True)
            await self._git("remote", "set-url", "origin", source)
            await self._git("fetch", "--prune", "--quiet", "origin")
            return
        shutil.rmtree(self.root, ignore_errors=True)
        self.root.parent.mkdir(parents=True, exist_ok=True)
        # From a mirror: a copy, never hardlinks (a sandboxed run may own the workspace's files).
        local = ("--no-hardlinks",) if self.mirror else ()
        clone = ("clone", "--quiet", "--no-checkout", *local, source, str(self.root))
        await self._git(*clone, cwd=self.root.parent)

    async def restart_from_base(self, branch: str, base: str) -> str:
        """Point `branch` at the base's current head; its old head stays as `<branch>-previous`.

        Safe to retry: a branch already at the base is pushed unchanged.
        """
        await self.sync(base, base)
        base_sha = await self.head_sha()
        old = f"refs/remotes/origin/{branch}"
        if await self._ref_exists(old):
            _, old_sha = await self._git("rev-parse", old)
            if old_sha != base_sha:
                await self._git(
                    "push", "--quiet", "--force", "origin", f"{old}:refs/heads/{branch}-previous"
                )
        await self._git("checkout", "--quiet", "--force", "-B", branch, base_sha)
        await self._git("push", "--quiet", "--force", "origin", f"HEAD:refs/heads/{branch}")
        return base_sha

    async def _ref_exists(self, ref: str) -> bool:
        code, _ = await self._git("rev-parse", "--verify", "--quiet", ref, check=False)
        return code == 0

    def _path(self, relative: str) -> Path:
        """The absolute path of a repository-relative path, refusing escapes and .git."""
        parts = Path(relative).parts
        if not relative or Path(relative).is_absolute() or ".git" in parts or ".." in parts:
            raise ValueError(f"refusing path outside the repository or inside .git: {relative!r}")
        path = (self.root / relative).resolve()
        if not path.is_relative_to(self.root.resolve()) or path == self.root.resolve():
            raise ValueError(f"refusing path outside the repository: {relative!r}")
        return path

    async def write_files(self, files: dict[str, str]) -> None:
        """Write files (repository-relative paths, UTF-8 text); all are checked first."""
        targets = {self._path(relative): content for relative, content in files.items()}
        for path, content in targets.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8", newline="")

    async def delete_files(self, paths: Iterable[str]) -> None:
        """Delete files or directories (repository-relative); missing ones are ignored."""
        for path in [self._path(relative) for relative in paths]:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)

    async def commit(self, message: str) -> str | None:
        """Stage everything and commit; the new sha, or None when nothing changed."""
        await self._git("add", "--all")
        code, _ = await self._git("diff", "--cached", "--quiet", check=False)
        if code == 0:
            return None
        await self._git("commit", "--quiet", "--no-verify", "--file=-", stdin=message.encode())
        return await self.head_sha()

    async def push(self, branch: str) -> str:
        """Push HEAD to the remote `branch` (a no-op when it is already there), once what it
        would publish passed the outgoing check."""
        if self.outgoing is not None:
            await self.outgoing.check(self, branch)
        await self._git("push", "--quiet", "origin", f"HEAD:refs/heads/{branch}")
        return await self.head_sha()

    async def commit_and_push(
        self, branch: str, base: str, files: dict[str, str], message: str
    ) -> CommitResult:
        """Sync, write, commit and push; identical content changes nothing (safe to retry)."""
        await self.sync(branch, base)
        await self.write_files(files)
        sha = await self.commit(message)
        if sha is None:
            return CommitResult(sha=await self.head_sha(), changed=False)
        return CommitResult(sha=await self.push(branch), changed=True)

    async def head_sha(self) -> str:
        """The sha of the checked-out commit."""
        return (await self._git("rev-parse", "HEAD"))[1]

    async def diff_against(self, base: str, limit: int = DIFF_LIMIT) -> str:
        """The committed changes since the branch left the remote `base`, trimmed to limit."""
        _, diff = await self._git("diff", "--no-color", f"refs/remotes/origin/{base}...HEAD")
        more = len(diff) - limit
        return diff if more <= 0 else f"{diff[:limit]}\n... [diff trimmed: {more} more characters]"

    async def changed_files(self, base: str) -> list[str]:
        """Files the branch changed since it left the remote `base`."""
        _, out = await self._git("diff", "--name-only", f"refs/remotes/origin/{base}...HEAD")
        return [line for line in out.splitlines() if line]

    async def merge_from(self, base: str) -> list[str] | None:
        """Merge the remote `base` in when they conflict: None when mergeable as it is, else the
        conflicted files (empty when git merged them itself)."""
        target = f"refs/remotes/origin/{base}"
        code, _ = await self._git("merge-tree", "--write-tree", "HEAD", target, check=False)
        if code == 0:
            return None
        message = f"Merge {base} into the branch"
        await self._git("merge", "--no-ff", "--no-commit", target, check=False)
        _, out = await self._git("diff", "--name-only", "--diff-filter=U")
        conflicted = [line for line in out.splitlines() if line]
        if not conflicted:
            await self._git("commit", "--quiet", "--no-verify", f"--message={message}")
        return conflicted

    async def conclude_merge(self, base: str) -> str:
        """Commit a merge whose conflicts were resolved in the working tree."""
        await self._git("add", "--all")
        await self._git(
            "commit", "--quiet", "--no-verify", f"--message=Merge {base} into the branch"
        )
        return await self.head_sha()

    async def abort_merge(self) -> None:
        """Give up a merge in progress, leaving the branch as it was."""
        await self._git("merge", "--abort", check=False)

    async def list_files(self) -> list[str]:
        """The tracked files of the working tree."""
        _, out = await self._git("ls-files", "-z")
        return [name for name in out.split("\0") if name]

    async def run_command(
        self,
        command: str,
        timeout_s: float,
        env_dir: Path | None = None,
        sandbox: Sandbox | None = None,
    ) -> CommandResult:
        """Run a command (no shell) in the workspace, sandboxed, in `env_dir` when given."""
        return await run_command(self.root, command, timeout_s, env_dir=env_dir, sandbox=sandbox)
