"""Push races on demand: a person's commit lands on a branch just as the next push to the
repository begins, so that push is rejected as GitHub rejects a push that is not a fast-forward.

`POST /_emulator/git/races` queues one; tests use it to make the race deterministic.
"""

import asyncio
import os
import tempfile
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

NAME = r"^[A-Za-z0-9_.-]+$"


class PushRace(BaseModel):
    """A person's commit of one file on `branch`, made when the next push begins."""

    owner: str = Field(pattern=NAME)
    repo: str = Field(pattern=NAME)
    branch: str = Field(min_length=1)
    author: str = Field(pattern=NAME, description="a seeded GitHub login")
    path: str = Field(min_length=1)
    content: str
    message: str = "A person's commit"


class PushRaces:
    """The races waiting for a push, in the order they were asked for."""

    def __init__(self) -> None:
        self.pending: list[PushRace] = []

    def take(self, owner: str, repo: str) -> list[PushRace]:
        """The races for this repository, removed from the queue."""
        taken = [r for r in self.pending if (r.owner, r.repo) == (owner, repo)]
        self.pending = [r for r in self.pending if r not in taken]
        return taken


async def commit_on_branch(bare: Path, race: PushRace) -> str:
    """Commit the race's file on top of its branch in the bare repository; the new sha."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {key: os.environ[key] for key in ("PATH", "HOME") if key in os.environ}
        env.update(
            GIT_INDEX_FILE=str(Path(tmp) / "index"), GIT_CONFIG_GLOBAL=os.devnull,
            GIT_AUTHOR_NAME=race.author, GIT_AUTHOR_EMAIL=f"{race.author}@example.com",
            GIT_COMMITTER_NAME=race.author, GIT_COMMITTER_EMAIL=f"{race.author}@example.com",
        )  # fmt: skip

        async def git(*args: str, stdin: str | None = None) -> str:
            proc = await asyncio.create_subprocess_exec(
                "git", f"--git-dir={bare}", *args, env=env,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            out, err = await proc.communicate(stdin.encode() if stdin is not None else None)
            if proc.returncode != 0:
                raise RuntimeError(f"git {' '.join(args)}: {err.decode().strip()}")
            return out.decode().strip()

        parent = await git("rev-parse", f"refs/heads/{race.branch}")
        await git("read-tree", parent)
        blob = await git("hash-object", "-w", "--stdin", stdin=race.content)
        await git("update-index", "--add", "--cacheinfo", f"100644,{blob},{race.path}")
        tree = await git("write-tree")
        sha = await git("commit-tree", tree, "-p", parent, "-m", race.message)
        await git("update-ref", f"refs/heads/{race.branch}", sha, parent)
        return sha


def create_races_router(races: PushRaces) -> APIRouter:
    """`/_emulator/git/races`: queue a race, or list those still waiting."""
    router = APIRouter(prefix="/_emulator/git/races", tags=["emulator"])

    @router.post("", status_code=201)
    def add_race(race: PushRace) -> dict[str, Any]:
        races.pending.append(race)
        return {"queued": len(races.pending)}

    @router.get("")
    def list_races() -> dict[str, Any]:
        return {"pending": [r.model_dump() for r in races.pending]}

    return router
