"""Live progress: the implementation activity's reports reach the ticket's status query."""

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from temporalio import activity
from temporalio.api.sdk.v1 import WorkflowMetadata
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from activities.messages import ImplementInput
from activities.progress import ProgressReporter
from cli.status.watch import progress_line
from graphs.implementation.journal import (
    Progress,
    ReviewOutcome,
    TestsOutcome,
    WorkerOutcome,
)
from graphs.implementation.state import Review
from graphs.schemas import FileChange, Implementation, TestReport
from tests.conftest import register_search_attributes, venv_binary
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import ticket_input, wait_until
from workflows.registry import WORKFLOWS
from workflows.ticket.messages import Phase, Status, TicketStatus
from workflows.ticket.workflow import TicketWorkflow

PYTEST_SUMMARY = "FAILED tests/test_cli.py::test_pow\n1 failed, 3 passed in 0.12s"


@pytest.fixture(scope="module")
async def dev_server() -> AsyncIterator[WorkflowEnvironment]:
    """A dev server in real time: the fake activity waits for the test, not for a clock."""
    env = await WorkflowEnvironment.start_local(
        data_converter=pydantic_data_converter,
        dev_server_existing_path=venv_binary("temporal"),
        dev_server_extra_args=["--headless"],
    )
    await register_search_attributes(env.client)
    async with env:
        yield env


class ReportingTeam(FakeActivities):
    """An implementation that reports its steps and holds each until the test has seen it."""

    def __init__(self) -> None:
        super().__init__(questions=False)
        self.seen = asyncio.Queue[None]()

    @activity.defn(name="implement_changes")
    async def implement_changes(self, inp: ImplementInput) -> Implementation:
        reporter = ProgressReporter(inp.repo.workflow_id, max_revisions=15, interval=0)
        done = Progress()
        reporter.started("worker", 1, "calc/operations.py")
        reporter.started("worker", 1, "calc/cli.py")
        done.workers.append(
            WorkerOutcome(revision=1, path="calc/operations.py", note="", tokens=40)
        )
        reporter.recorded(done)
        await self.step(reporter)
        reporter.started("tests", 1, None)
        report = TestReport(passed=False, exit_code=1, output=PYTEST_SUMMARY)
        done.tests.append(TestsOutcome(revision=1, report=report))
        reporter.recorded(done)
        await self.step(reporter)
        review = Review(passed=False, summary="cli.py does not\nparse negative exponents")
        done.reviews.append(ReviewOutcome(revision=1, review=review, tokens=60))
        reporter.started("worker", 2, "calc/cli.py")
        reporter.recorded(done)
        await self.step(reporter)
        change = FileChange(path="calc/operations.py", content="def power(a, b):\n    ...\n")
        return Implementation(changes=[change], notes="done", tokens=100)

    async def step(self, reporter: ProgressReporter) -> None:
        """Send the progress, then wait until the test has checked it."""
        await reporter.send()
        await asyncio.wait_for(self.seen.get(), 30)


async def test_status_and_watch_line_follow_the_implementation(
    dev_server: WorkflowEnvironment,
) -> None:
    team = ReportingTeam()
    queue = f"tq-{uuid.uuid4()}"
    inp = ticket_input("LIVE-1")
    inp.auto, inp.token_budget = True, 100_000
    async with Worker(
        dev_server.client, task_queue=queue, workflows=WORKFLOWS, activities=team.all()
    ):
        handle = await dev_server.client.start_workflow(
            TicketWorkflow.run, inp, id=f"ticket-LIVE-1-{uuid.uuid4()}", task_queue=queue
        )
        lines = []

        async def seen(check) -> TicketStatus:
            current = await wait_until(handle, check)
            lines.append(progress_line(current))
            team.seen.put_nowait(None)
            return current

        writing = await seen(lambda s: s.implementation is not None)
        assert (writing.phase, writing.status) == (Phase.IMPLEMENTATION, Status.RUNNING)
        assert writing.step == "Implement plan v1" and writing.step_started_at is not None
        progress = writing.implementation
        assert (progress.revision, progress.max_revisions) == (1, 15)
        assert progress.writing == ["calc/cli.py"] and progress.stage == "writing files"
        tested = await seen(lambda s: s.implementation.tests is not None)
        assert tested.implementation.stage == "running the tests"
        assert tested.implementation.tests.passed_count == 3
        assert tested.implementation.tests.failed_count == 1
        reviewed = await wait_until(handle, lambda s: s.implementation.qa_verdict is not None)
        metadata = await handle.query("__temporal_workflow_metadata", result_type=WorkflowMetadata)
        details = metadata.current_details  # what the Web UI shows
        lines.append(progress_line(reviewed))
        team.seen.put_nowait(None)
        assert reviewed.implementation.revision == 2
        assert reviewed.implementation.tokens == 100
        assert "Step: Implement plan v1 (since " in details
        assert "Revision 2 of 15: writing files" in details and "Writing `calc/cli.py`" in details
        assert "Last test run: 3 passed, 1 failed" in details
        assert "QA: not passed: cli.py does not parse negative exponents" in details
        result = await asyncio.wait_for(handle.result(), 30)

    assert result.status == Status.COMPLETED
    tokens_before = 10 + 3 + 7  # analysis, requirements and plan of the fakes
    assert lines == [
        "LIVE-1 implementation/running | doing: Implementing the plan"
        " | step: Implement plan v1 | revision: 1 of 15: writing files | writing: calc/cli.py"
        f" | tokens: {tokens_before + 40:,} of 100,000 | cost: $0.00 and the step under way",
        "LIVE-1 implementation/running | doing: Implementing the plan"
        " | step: Implement plan v1 | revision: 1 of 15: running the tests"
        f" | tests: 3 passed, 1 failed | tokens: {tokens_before + 40:,} of 100,000"
        " | cost: $0.00 and the step under way",
        "LIVE-1 implementation/running | doing: Implementing the plan"
        " | step: Implement plan v1 | revision: 2 of 15: writing files | writing: calc/cli.py"
        " | tests: 3 passed, 1 failed | QA: not passed: cli.py does not parse negative exponents"
        f" | tokens: {tokens_before + 100:,} of 100,000 | cost: $0.00 and the step under way",
    ]
