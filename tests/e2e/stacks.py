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
from tests.support.processes import free_port

T = TypeVar("T")
# Once a stack was too slow to start, the next ones would be too: their tests fail at once.
_too_slow: list[str] = []


def stack_settings(
    data: Path, follow_pull_request: bool = False, project: str = "", **overrides: Any
) -> Settings:
    """Settings for a stack on free ports whose DEMO project implements and notifies Discord.

    Tickets end when their PR opens unless `follow_pull_request` (the modules that cover the
    way to the PR); `project` adds lines to the project's table.
    """
    emulator_port = free_port()
    projects = data / "projects.toml"
    projects.write_text(
        "[projects.DEMO]\n"
        'repository = "demo/calc"\n'
        "implement_after_approval = true\n"
        'discord_webhook_url = "/api/webhooks/1000/demo-token"\n'
        f"follow_pull_request = {str(follow_pull_request).lower()}\n{project}"
    )
    defaults: dict[str, Any] = {
        "data_dir": data,
        "projects_file": projects,
        "temporal_address": f"127.0.0.1:{free_port()}",
        "temporal_ui_port": free_port(),
        "temporal_http_port": free_port(),
        "webhook_port": free_port(),
        "emulator_port": emulator_port,
        "metrics_port": free_port(),
        "codec_port": free_port(),
        "toolserver_port": free_port(),
        "local_model_port": free_port(),
        "task_queue": "e2e",
        "temporal_env_config": False,  # the stack's own dev server, whatever the shell has set
    }
    return Settings(**(defaults | overrides))


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


async def pull_requests(settings: Settings) -> list[dict[str, Any]]:
    """Every pull request on the emulator's demo/calc, open or closed."""
    async with httpx.AsyncClient(base_url=settings.jira_base_url, timeout=10) as http:
        response = await http.get(
            "/api/v3/repos/demo/calc/pulls",
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
