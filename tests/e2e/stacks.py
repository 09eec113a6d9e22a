"""Embedded stacks with extra settings (webhook secret, faults file) for end-to-end modules."""

import asyncio
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from config import Settings
from embedded.stack import Stack, StackError, StackNotReadyError

T = TypeVar("T")
# Once a stack was too slow to start, the next ones would be too: their tests fail at once.
_too_slow: list[str] = []


@asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[Stack]:
    """The stack started with fresh emulators, stopped at the end; fails the test if it cannot."""
    if _too_slow:
        pytest.fail(f"an earlier stack of this run did not start: {_too_slow[0]}", pytrace=False)
    stack = Stack(settings, reset_emulators=True)
    try:
        try:
            await stack.start()
        except StackNotReadyError as err:
            _too_slow.append(str(err))
            pytest.fail(f"the stack did not start: {err}", pytrace=False)
        except StackError as err:
            pytest.fail(f"the stack did not start: {err}", pytrace=False)
        yield stack
    finally:
        stack.stop()


async def poll(check: Callable[[], Awaitable[T | None]], what: str, timeout_s: float = 120) -> T:
    """Call `check` until it returns something other than None, failing after a deadline."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if (found := await check()) is not None:
            return found
        await asyncio.sleep(0.2)
    raise AssertionError(f"{what} did not happen within {timeout_s:.0f}s")


def admin(settings: Settings) -> httpx.AsyncClient:
    """A client for the emulators' admin and API routes."""
    return httpx.AsyncClient(base_url=settings.jira_base_url, timeout=30)


async def pull_requests(settings: Settings, repository: str = "demo/calc") -> list[dict[str, Any]]:
    """Every pull request on one of the emulator's repositories, open or closed."""
    async with httpx.AsyncClient(base_url=settings.jira_base_url, timeout=10) as http:
        response = await http.get(
            f"/api/v3/repos/{repository}/pulls",
            params={"state": "all"},
            headers={"Authorization": "Bearer t"},
        )
    response.raise_for_status()
    pulls: list[dict[str, Any]] = response.json()
    return pulls


def clone_branch(settings: Settings, branch: str, into: Path) -> Path:
    """Clone demo/calc at a branch from the emulator's git hosting, with the real git CLI."""
    url = f"{settings.git_base_url}/demo/calc.git"
    subprocess.run(
        ["git", "clone", "--branch", branch, url, str(into)], check=True, capture_output=True
    )
    return into
