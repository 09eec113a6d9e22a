"""DEMO-1 on the local model: the whole lifecycle, and a pull request that tells the truth.

Opt-in (`make test-local-model`, or `pytest -m local_model`): it takes about ten minutes on
two cores and needs `make local-model` first.
"""

import asyncio
import logging
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from temporalio.service import RPCError

from config import Settings
from embedded import demo
from embedded.demo import DEMO_KEY
from embedded.stack import Stack
from harness.stacks import stack_settings
from localmodel.layout import layout_for
from temporal.client import connect_temporal
from tests.e2e.stacks import clone_branch, pull_requests, running
from workflows.ticket.messages import Status, TicketResult, TicketStatus

pytestmark = [pytest.mark.local_model, pytest.mark.e2e]
WAIT_S = 3600.0
VERDICT = re.compile(r"The test command (passed|failed \(exit code (\d+)\))")
log = logging.getLogger("tests.local_model")


async def drive(settings: Settings) -> TicketResult:
    """Start DEMO-1 and answer every round of questions and approve every plan until it ends."""
    client = await connect_temporal(settings)
    demo.starter(settings, DEMO_KEY, "--restart")
    handle = client.get_workflow_handle(f"ticket-{DEMO_KEY}", result_type=TicketResult)
    started = time.monotonic()

    def elapsed() -> float:
        return time.monotonic() - started

    answered: list[list[str]] = []
    approved: set[int] = set()
    phase = None
    while elapsed() < WAIT_S:
        try:
            current = await handle.query("status", result_type=TicketStatus)
        except RPCError as err:  # a worker busy with a long model call may answer late
            log.info("%6.0f s  status query failed (%s); asking again", elapsed(), err)
            await asyncio.sleep(2)
            continue
        if current.phase != phase:
            phase = current.phase
            log.info("%6.0f s  phase %s", elapsed(), phase.value)
        questions = [q.text for q in current.questions]
        if current.status == Status.AWAITING_ANSWERS and questions not in answered:
            answered.append(questions)
            log.info("%6.0f s  answering %d questions", elapsed(), len(questions))
            demo.starter(settings, "answer", DEMO_KEY, demo.DEMO_ANSWER, "--as", "alice")
        elif current.status == Status.AWAITING_APPROVAL and current.plan_version not in approved:
            approved.add(current.plan_version)
            log.info("%6.0f s  approving plan v%d", elapsed(), current.plan_version)
            demo.starter(settings, "approve", DEMO_KEY, "--as", "bob")
        elif current.status in (Status.COMPLETED, Status.FAILED, Status.CANCELLED):
            result: TicketResult = await handle.result()
            log.info("%6.0f s  %s, %d model tokens", elapsed(),
                     current.status.value, current.tokens)  # fmt: skip
            return result
        await asyncio.sleep(1)
    raise AssertionError(f"{DEMO_KEY} did not finish in {WAIT_S:.0f} s")


@pytest.fixture(scope="module")
async def stack(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Stack]:
    """The embedded stack with the local model server, on free ports and private data."""
    if "local_model" not in (request.config.getoption("markexpr") or ""):
        pytest.skip(
            "opt-in: DEMO-1 on the local model takes about ten minutes; "
            "run it with `make test-local-model` (pytest -m local_model)"
        )
    settings = stack_settings(
        tmp_path_factory.mktemp("local-model-stack"),
        model_provider="local",
        task_queue="e2e-local-model",
        agent_task_queue="e2e-local-model",
    )
    if not layout_for(settings).installed():
        pytest.skip(
            f"the local model is not installed in {settings.models_dir}: run `make local-model`"
        )
    async with running(settings) as started:
        yield started


async def test_demo_ticket_on_the_local_model_reports_the_real_test_result(
    stack: Stack, tmp_path: Path
) -> None:
    settings = stack.settings
    result = await drive(settings)
    assert result.status == Status.COMPLETED, result.message
    assert result.pr_url and result.branch

    pulls = await pull_requests(settings)
    assert [p["html_url"] for p in pulls] == [result.pr_url]
    body, draft = pulls[0]["body"], pulls[0]["draft"]
    assert "offline" not in body.split("## Plan")[0]  # a real model wrote this
    verdict = VERDICT.search(body)
    assert verdict is not None, body

    clone = clone_branch(settings, result.branch, tmp_path / "clone")
    rerun = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=clone,
        capture_output=True,
        text=True,
    )
    passed = verdict.group(1) == "passed"
    assert passed == (rerun.returncode == 0), rerun.stdout[-2000:]
    if not passed:
        assert draft, "a pull request whose tests fail must be a draft"
        assert verdict.group(2) == str(rerun.returncode)


async def test_mvp_on_the_local_model_reports_what_passes(stack: Stack, tmp_path: Path) -> None:
    """The MVP builder completes, and its report's test result is what the tests really do."""
    from embedded.stack import child_env

    done = subprocess.run(
        [sys.executable, "starter.py", "mvp", "Build an MVP for a todo-list app",
         "--output", str(tmp_path)],
        cwd=Path(__file__).parents[2],
        env=child_env(stack.settings),
        capture_output=True,
        text=True,
        timeout=WAIT_S,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "QA verdict:" in done.stdout and "offline" not in done.stdout.lower()
    project = tmp_path / "build-an-mvp-for-a-todo-list-app"
    if "Tests: none ran" in done.stdout:
        return
    rerun = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    reported = "): passed" in done.stdout
    assert reported == (rerun.returncode == 0), done.stdout + rerun.stdout[-2000:]
