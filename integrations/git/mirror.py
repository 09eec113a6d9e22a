"""One bare mirror per remote on the worker: workspaces clone and fetch from it, not the remote.

The mirror is a cache like the workspaces. Every workspace sync still sees the remote as it was
when the sync began: the mirror is fetched by a fetch that began after that moment, and
concurrent syncs of one repository share such a fetch instead of each making their own.
"""

import asyncio
import hashlib
import os
import re
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from integrations.git.client import GitError, GitWorkspace
from integrations.github.auth import TokenSource

# Branches and tags only: a forge's other refs (pull requests, notes) are not worked on.
REFSPECS = ("+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*")
# Every fetch kept as one pack (gc merges them past 50), never as loose objects: a workspace
# cloned from the mirror copies its object files, so their number must not grow with tickets.
FETCH = ("-c", "fetch.unpackLimit=1", "fetch", "--prune", "--quiet", "origin")


def mirror_name(remote_url: str) -> str:
    """A directory name for the remote's mirror: readable, and unique by the URL's hash."""
    tail = re.sub(r"[^A-Za-z0-9._-]+", "-", remote_url.rstrip("/").rsplit("/", 1)[-1])
    tail = tail.removesuffix(".git").strip("-.")[:40] or "repository"
    return f"{tail}-{hashlib.sha256(remote_url.encode()).hexdigest()[:12]}.git"


class GitMirror:
    """A bare mirror of one remote; one fetch at a time, shared by the syncs waiting for it."""

    def __init__(self, root: Path, remote_url: str, token: str | TokenSource | None = None) -> None:
        self.root = root
        self.remote_url = remote_url
        self._runner = GitWorkspace(root, remote_url, token=token)
        self._lock = asyncio.Lock()
        self._begun = 0  # fetches begun
        self._done = 0  # the number of the last fetch that completed
        self.fetches = 0  # fetches from the remote, for tests and figures

    @asynccontextmanager
    async def fresh(self) -> AsyncIterator[Path]:
        """Hold the mirror, fetched by a fetch that began after this call (shared if possible).

        Workspaces clone or fetch from it while it is held: no fetch or gc runs meanwhile.
        """
        wanted = self._begun + 1
        async with self._lock:
            if self._done < wanted:
                self._begun += 1
                number = self._begun
                await self._fetch()
                self._done = number
            yield self.root

    async def _fetch(self) -> None:
        """Fetch every branch and tag; a mirror that will not fetch is made anew once."""
        fresh = not (self.root / "config").is_file()
        if fresh:
            await self._create()
        try:
            await self._git(*FETCH)
        except GitError as err:
            if fresh or err.not_found or err.auth_failed:
                raise
            await self._create()
            await self._git(*FETCH)
        self.fetches += 1

    async def _create(self) -> None:
        """An empty bare repository with the remote configured, put in place in one rename."""
        shutil.rmtree(self.root, ignore_errors=True)
        self.root.parent.mkdir(parents=True, exist_ok=True)
        building = self.root.with_name(f"{self.root.name}.new-{os.getpid()}")
        shutil.rmtree(building, ignore_errors=True)
        await self._git("init", "--bare", "--quiet", str(building), cwd=self.root.parent)
        settings = [("remote.origin.url", self.remote_url), ("gc.autoDetach", "false")]
        settings += [("maintenance.autoDetach", "false")]  # gc runs while the mirror is held
        settings += [("remote.origin.fetch", spec) for spec in REFSPECS]
        for key, value in settings:
            await self._git(f"--git-dir={building}", "config", "--add", key, value, cwd=building)
        building.rename(self.root)

    async def _git(self, *args: str, cwd: Path | None = None) -> None:
        if cwd is None:  # never a repository around a broken mirror
            args, cwd = (f"--git-dir={self.root}", *args), self.root.parent
        await self._runner.run_git(*args, cwd=cwd)
