"""The ticket workflow on the time-skipping server with fake activities."""

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest
from temporalio.client import WorkflowFailureError, WorkflowHandle, WorkflowUpdateFailedError
from temporalio.exceptions import ApplicationError
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from tests.support.notices import check_row
from tests.workflows.fakes import FakeActivities
from workflows.registry import WORKFLOWS
from workflows.review.messages import ReviewPolicy
from workflows.ticket.messages import (
    AnswerInput,
    ApprovalInput,
    Phase,
    RejectionInput,
    Status,
    TicketInput,
    TicketProject,
    TicketResult,
    TicketStatus,
)
from workflows.ticket.workflow import TicketWorkflow

DEADLINE_S = 30


def ticket_input(
    key: str, implement: bool = True, max_rejections: int = 5, follow: bool = False
) -> TicketInput:
    """A ticket of the demo project (ending when its PR opens unless it follows the PR)."""
    return TicketInput(
        key=key,
        project=TicketProject(
            jira_project="DEMO",
            repository="demo/calc",
            clone_url="http://forge/demo/calc.git",
            implement_after_approval=implement,
        ),
        max_plan_rejections=max_rejections,
        review=ReviewPolicy(follow_pull_request=follow),
    )


@asynccontextmanager
async def running_ticket(
    env: WorkflowEnvironment,
    fakes: FakeActivities,
    inp: TicketInput,
    workflow_id: str | None = None,
) -> AsyncIterator[WorkflowHandle[TicketWorkflow, TicketResult]]:
    """A worker with the fakes on its own task queue and one started ticket."""
    queue = f"tq-{uuid.uuid4()}"
    async with Worker(env.client, task_queue=queue, workflows=WORKFLOWS, activities=fakes.all()):
        handle = await env.client.start_workflow(
            TicketWorkflow.run,
            inp,
            id=workflow_id or f"ticket-{inp.key}-{uuid.uuid4()}",
            task_queue=queue,
        )
        yield handle


async def wait_until(
    handle: WorkflowHandle[TicketWorkflow, TicketResult], check: Callable[[TicketStatus], bool]
) -> TicketStatus:
    """Query the status until `check` holds, failing after a deadline."""
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        current = await handle.query(TicketWorkflow.status)
        if check(current):
            return current
        await asyncio.sleep(0.05)
    raise AssertionError(f"status never satisfied the check; last: {current}")


async def cancel_and_wait(handle: WorkflowHandle[TicketWorkflow, TicketResult]) -> None:
    """Cancel and wait for the end, so no work is left behind to hold the test server's clock."""
    await handle.cancel()
    with pytest.raises(WorkflowFailureError):
        await asyncio.wait_for(handle.result(), DEADLINE_S)


def awaiting(status: Status) -> Callable[[TicketStatus], bool]:
    return lambda current: current.status == status


async def test_happy_path_opens_pull_request(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities()
    async with running_ticket(time_skipping_env, fakes, ticket_input("DEMO-1")) as handle:
        waiting = await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
        assert [q.text for q in waiting.questions] == ["Negative exponents?"]
        await handle.signal(TicketWorkflow.answer, AnswerInput(text="Return a float", author="al"))
        planned = await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        assert planned.plan_version == 1
        await handle.signal(TicketWorkflow.approve, ApprovalInput(author="bob"))
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)
        final = await handle.query(TicketWorkflow.status)  # a query needs the worker

    assert result.status == Status.COMPLETED
    assert result.pr_url == "http://forge/demo/calc/pull/7"
    assert (result.pr_draft, result.tests_passed) == (False, True)
    assert fakes.calls["refine_requirements"][0].answers == ["Return a float"]
    plan_commit = fakes.calls["commit_files"][0]
    assert plan_commit.files[0].path == ".ticketsmith/DEMO-1-plan.md"
    assert plan_commit.repo.branch == "ticketsmith/DEMO-1-add-power"
    assert fakes.calls["commit_files"][1].files[0].path == "calc/operations.py"
    assert fakes.calls["open_pull_request"][0].draft is False
    steps = [c.marker.rsplit("/", 1)[1] for c in fakes.calls["post_jira_comment"]]
    assert steps == ["questions-1", "plan-v1", "approved-v1", "pull-request"]
    assert fakes.calls["transition_jira_issue"][0].status == "In Review"
    assert [d.kind for d in final.decisions] == ["answer", "approve"]
    check_row("questions asked", **fakes.said())
    check_row("plan written", **fakes.said())
    check_row("plan approved", **fakes.said())
    check_row("pull request ready", **fakes.said())
    check_row("ended at the pull request", **fakes.said())
    notices = [n.content for n in fakes.calls["notify_discord"]]
    assert notices[-2:] == [
        "DEMO-1: pull request ready for review: http://forge/demo/calc/pull/7. The tests pass.",
        "DEMO-1 completed: Pull request opened: http://forge/demo/calc/pull/7",
    ]
    assert final.tokens == 10 + 5 + 3 + 7 + 20
    assert [(u.phase, u.tokens) for u in result.usage] == [
        (Phase.REFINEMENT, 10 + 5 + 3),
        (Phase.PLANNING, 7),
        (Phase.IMPLEMENTATION, 20),
    ]
    assert all(u.ended_at and u.ended_at >= u.started_at for u in result.usage)
    assert all(u.waiting_since is None for u in result.usage)
    assert [u.waiting_seconds > 0 for u in result.usage] == [True, True, False]
    described = await handle.describe()
    attrs = {k.name: v for k, v in described.typed_search_attributes}  # type: ignore[attr-defined]
    assert attrs["Status"] == "completed"


async def test_rejection_replans_with_feedback(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities(questions=False)
    async with running_ticket(time_skipping_env, fakes, ticket_input("DEMO-2")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await handle.signal(TicketWorkflow.reject, RejectionInput(reason="Add CLI tests"))
        second = await wait_until(
            handle, lambda s: s.plan_version == 2 and s.status == Status.AWAITING_APPROVAL
        )
        assert "Add CLI tests" in (second.plan_markdown or "")
        await handle.signal(TicketWorkflow.approve, ApprovalInput(author="bob"))
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)

    assert result.plan_version == 2
    assert [c.feedback for c in fakes.calls["generate_plan"]] == [[], ["Add CLI tests"]]
    assert [c.message for c in fakes.calls["commit_files"]][:2] == [
        "DEMO-2: plan v1",
        "DEMO-2: plan v2",
    ]
    assert "post_jira_comment" in fakes.calls and len(fakes.calls["generate_questions"]) == 1


async def test_update_refused_when_not_waiting(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities()
    async with running_ticket(time_skipping_env, fakes, ticket_input("DEMO-3")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
        with pytest.raises(WorkflowUpdateFailedError) as refused:
            await handle.execute_update(TicketWorkflow.approve_plan, ApprovalInput(author="x"))
        assert "not waiting for an approval" in str(refused.value.cause)
        assert "waiting for answers" in str(refused.value.cause)
        accepted = await handle.execute_update(
            TicketWorkflow.submit_answer, AnswerInput(text="float", author="al")
        )
        assert "recorded" in accepted.message
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await cancel_and_wait(handle)


async def test_duplicate_delivery_is_ignored(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities(questions=False)
    inp = ticket_input("DEMO-4", max_rejections=2)
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        rejection = RejectionInput(reason="no", delivery_id="d-1")
        await handle.signal(TicketWorkflow.reject, rejection)
        # plan v2 is awaiting approval, not only drafted: a rejection lands in that wait
        await wait_until(
            handle, lambda s: s.plan_version == 2 and s.status == Status.AWAITING_APPROVAL
        )
        await handle.signal(TicketWorkflow.reject, rejection)  # redelivered: ignored
        await handle.signal(TicketWorkflow.reject, RejectionInput(reason="still no"))
        with pytest.raises(WorkflowFailureError) as failed:
            await asyncio.wait_for(handle.result(), DEADLINE_S)

    cause = failed.value.cause
    assert isinstance(cause, ApplicationError) and cause.type == "PlanRejectedTooOften"
    assert [c.feedback for c in fakes.calls["generate_plan"]] == [[], ["no"]]
    last = fakes.calls["post_jira_comment"][-1]
    assert last.marker.endswith("/failed") and "rejected 2 times" in last.body
