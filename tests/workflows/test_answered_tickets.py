"""A ticket whose approved plan answers its question: the answer on Jira, no pull request."""

import asyncio

from temporalio.testing import WorkflowEnvironment

from tests.support.notices import check_row
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import (
    DEADLINE_S,
    awaiting,
    running_ticket,
    ticket_input,
    wait_until,
)
from workflows.ticket.messages import ApprovalInput, Phase, Status
from workflows.ticket.workflow import TicketWorkflow

ANSWER = "It is intended: a half cent rounds to the even cent.\nNo code change is needed."


async def test_an_approved_answer_is_posted_and_no_pull_request_opens(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(questions=False)
    fakes.plan_answer = ANSWER
    async with running_ticket(time_skipping_env, fakes, ticket_input("DEMO-Q")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await handle.signal(TicketWorkflow.approve, ApprovalInput(author="bob"))
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)
        final = await handle.query(TicketWorkflow.status)

    assert (result.status, final.phase) == (Status.COMPLETED, Phase.DONE)
    assert result.message == "Answered without a code change; no pull request was opened."
    assert not result.pr_url
    assert fakes.calls["implement_changes"] == [] and fakes.calls["open_pull_request"] == []
    assert [c.message for c in fakes.calls["commit_files"]] == ["DEMO-Q: plan v1"]
    steps = [c.marker.rsplit("/", 1)[1] for c in fakes.calls["post_jira_comment"]]
    assert steps == ["plan-v1", "answered-v1"]
    answered = fakes.calls["post_jira_comment"][-1].body
    assert "Plan v1 was approved by bob" in answered
    assert "> It is intended: a half cent rounds to the even cent.\n> No code change" in answered
    assert [(c.status, c.done) for c in fakes.calls["transition_jira_issue"]] == [("Done", True)]
    check_row("answered", **fakes.said())
