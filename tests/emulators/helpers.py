"""Shared by emulator and client tests: the emulator in-process or over real HTTP, and
branches in its repositories."""

import os
import subprocess
import tempfile
from pathlib import Path

import httpx
from fastapi import FastAPI

from emulators.app import create_app

BASE_URL = "http://emulator.test"
BOT = {"Authorization": "Bearer test-token"}


def emulator_client(app: FastAPI) -> httpx.AsyncClient:
    """A raw HTTP client talking to the app in-process."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE_URL)


def new_emulator(state_dir: Path) -> FastAPI:
    """A fresh emulator app over a state directory."""
    return create_app(state_dir)


def add_branch(
    bare: Path, branch: str, files: dict[str, str], parent: str = "main", message: str = "change"
) -> str:
    """Commit `files` on top of `parent` as `branch` directly in a bare repo; returns the sha."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "GIT_INDEX_FILE": str(Path(tmp) / "index"),
            "GIT_AUTHOR_NAME": "Test",
            "GIT_AUTHOR_EMAIL": "test@example.com",
            "GIT_COMMITTER_NAME": "Test",
            "GIT_COMMITTER_EMAIL": "test@example.com",
        }

        def git(*args: str, stdin: str | None = None) -> str:
            done = subprocess.run(
                ["git", "--git-dir", str(bare), *args],
                env=env, input=stdin, capture_output=True, text=True, check=True,
            )  # fmt: skip
            return done.stdout.strip()

        parent_sha = git("rev-parse", f"refs/heads/{parent}")
        git("read-tree", parent_sha)
        for path, content in files.items():
            blob = git("hash-object", "-w", "--stdin", stdin=content)
            git("update-index", "--add", "--cacheinfo", f"100644,{blob},{path}")
        commit = git("commit-tree", git("write-tree"), "-p", parent_sha, "-m", message)
        git("update-ref", f"refs/heads/{branch}", commit)
        return commit
