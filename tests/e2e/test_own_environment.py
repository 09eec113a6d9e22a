"""A repository whose tests need packages the worker lacks: its own environment, built once.

demo/sizes needs humanize and the pytest-mock plugin, neither installed where ticketsmith runs.
Two tickets on it run its real suite in its sandboxed environment; the second reuses it.
"""

import asyncio
import re
from collections.abc import AsyncIterator
from importlib.util import find_spec
from typing import Any

import httpx
import pytest

from embedded.demo import starter
from embedded.stack import Stack
from harness.stacks import stack_settings
from temporal.client import connect_temporal
from tests.e2e.stacks import running
from workflows.ticket.messages import TicketResult

pytestmark = pytest.mark.e2e
SIZES = (
    '\n[projects.SIZE]\nrepository = "demo/sizes"\n'
    "implement_after_approval = true\nfollow_pull_request = false\n"
)
TICKET_S = 900.0


@pytest.fixture(scope="module")
async def stack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stack]:
    """The embedded stack with the SIZE project configured."""
    settings = stack_settings(tmp_path_factory.mktemp("stack"))
    with settings.projects_file.open("a") as projects:
        projects.write(SIZES)
    async with running(settings) as started:
        yield started


async def finish(stack: Stack, key: str) -> tuple[TicketResult, str]:
    """Run a ticket in auto mode to its pull request; its result and the pull request's body."""
    starter(stack.settings, key, "--auto")
    client = await connect_temporal(stack.settings)
    handle = client.get_workflow_handle(f"ticket-{key}", result_type=TicketResult)
    result = await asyncio.wait_for(handle.result(), TICKET_S)
    async with httpx.AsyncClient(base_url=stack.settings.github_api_url, timeout=10) as http:
        response = await http.get(
            "/repos/demo/sizes/pulls",
            params={"state": "all"},
            headers={"Authorization": "Bearer t"},
        )
    response.raise_for_status()
    pulls: list[dict[str, Any]] = response.json()
    body = next(p["body"] for p in pulls if p["html_url"] == result.pr_url)
    return result, body


async def test_tickets_run_the_real_suite_in_the_repositorys_own_environment(
    stack: Stack,
) -> None:
    assert find_spec("humanize") is None and find_spec("pytest_mock") is None, (
        "the worker's environment must not have the packages demo/sizes needs"
    )
    first, body = await finish(stack, "SIZE-1")
    assert first.tests_passed is True, body
    assert "3 passed" in body
    assert re.search(r"environment: pyproject\.toml.*; Python 3\.\d+\.\d+; built in", body), body
    assert "sandbox: bubblewrap, no network" in body
    # The worker's own pytest plugins (pytest-asyncio) never load into the repository's run.
    assert "asyncio" not in body.split("## Tests", 1)[1]

    second, body = await finish(stack, "SIZE-2")
    assert second.tests_passed is True, body
    assert "3 passed" in body
    assert "reused from the cache" in body
