"""One CI fix round per head commit: an Actions run that reports after its job's check run
(or any later report of the same commit) starts no second round."""

import asyncio
import time
from typing import Any

from temporalio.api.enums.v1 import EventType
from temporalio.client import WorkflowHandle
from temporalio.testing import WorkflowEnvironment

from tests.workflows.fakes import FakeActivities
from tests.workflows.test_review_phase import HEAD, following, merge, rounds_done
from tests.workflows.test_ticket_workflow import awaiting, running_ticket, wait_until
from workflows.review.messages import CheckInput, PullRequestChangeInput
from workflows.review.phase import CI_ROUND_PER_HEAD
from workflows.ticket.messages import Status
from workflows.ticket.workflow import TicketWorkflow


async def took_patch(handle: WorkflowHandle[Any, Any], patch: str, timeout_s: float = 30) -> None:
    """Wait until the workflow has recorded `patch`'s marker (it took the patched path)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        async for event in handle.fetch_history_events():
            if event.event_type == EventType.EVENT_TYPE_MARKER_RECORDED:
                details = event.marker_recorded_event_attributes.details
                if any(patch.encode() in p.data for p in details["patch-data"].payloads):
                    return
        await asyncio.sleep(0.1)
    raise AssertionError(f"the workflow never recorded the {patch!r} patch")


def check_run(sha: str) -> CheckInput:
    return CheckInput(
        source="check_run", name="tests", head_sha=sha, conclusion="failure", check_run_id=41
    )


def workflow_run(sha: str) -> CheckInput:
    return CheckInput(
        source="workflow_run", name="CI", head_sha=sha, conclusion="failure", workflow_run_id=7
    )


async def test_a_later_workflow_run_failure_on_the_same_head_starts_no_second_round(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    fakes.revise_unchanged = True  # the round pushes nothing: the head stays where it failed
    async with running_ticket(time_skipping_env, fakes, following("ONE-1")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        await handle.signal(TicketWorkflow.check_completed, check_run(HEAD))
        await wait_until(handle, rounds_done("ci", 1))
        await handle.signal(TicketWorkflow.check_completed, workflow_run(HEAD))
        await took_patch(handle, CI_ROUND_PER_HEAD)  # the late failure was dropped
        # Someone pushes and that commit fails: it gets its round, the first report does not.
        push = PullRequestChangeInput(action="synchronize", head_sha="human1", sender="frank")
        await handle.signal(TicketWorkflow.pull_request_changed, push)
        await handle.signal(TicketWorkflow.check_completed, workflow_run("human1"))
        after = await wait_until(handle, rounds_done("ci", 2))
        await merge(handle)

    read = [(c.name, c.check_run_id, c.workflow_run_id) for c in fakes.calls["read_ci_failure"]]
    assert read == [("tests", 41, None), ("CI", None, 7)]
    assert after.pull_request is not None
    assert [r.trigger for r in after.pull_request.rounds] == ["failed: tests", "failed: CI"]
    assert "found no change" in fakes.calls["comment_on_pull_request"][0].body
