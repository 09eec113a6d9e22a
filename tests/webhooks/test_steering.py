"""Steering a running implementation through the ticket workflow: `starter.py say` and a Jira
comment reach the running activity as guidance (read with the real `TicketSteering` from the
workflow's query), are recorded as decisions, show as pending until a revision is given
them; `/stop` reaches it too, and anything else is refused with what the ticket is doing."""

import asyncio
import time
from datetime import UTC, datetime

import httpx
import pytest
from temporalio import activity
from temporalio.client import WorkflowUpdateFailedError
from temporalio.testing import WorkflowEnvironment

from activities.messages import ImplementInput
from activities.steering import TicketSteering
from cli.status.render import render_status, to_text
from graphs.implementation.steering import SteeringNews
from graphs.schemas import FileChange, Implementation
from harness.jira_payloads import comment_event
from tests.webhooks.payloads import jira_request, unique_key
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import awaiting, running_ticket, ticket_input, wait_until
from workflows.ticket.messages import (
    Guidance,
    Phase,
    SayInput,
    Status,
    Steering,
    StopInput,
    TicketStatus,
)
from workflows.ticket.workflow import TicketWorkflow

DEADLINE_S = 30


class SteeredAgents(FakeActivities):
    """An implementation that waits until it hears people, then uses what it heard."""

    def __init__(self, until: str) -> None:
        super().__init__(questions=False)
        self._until = until  # "guidance" or "stop"
        self.heard: SteeringNews | None = None

    @activity.defn(name="implement_changes")
    async def implement_changes(self, inp: ImplementInput) -> Implementation:
        self.calls["implement_changes"].append(inp)
        steering = TicketSteering(inp.repo.workflow_id)
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline:
            news = await steering.news()
            if news.said if self._until == "guidance" else news.stop_by:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"the implementation never heard {self._until}")
        self.heard = news
        await steering.given([s.id for s in news.said], 2)
        notes = "; ".join(s.text for s in news.said) or f"stopped by {news.stop_by}"
        change = FileChange(path="calc/operations.py", content="def power(a, b):\n    ...\n")
        return Implementation(changes=[change], notes=notes, tokens=20)


def implementing(status: object) -> bool:
    return getattr(status, "phase", None) == Phase.IMPLEMENTATION


async def test_guidance_from_the_command_line_reaches_the_running_implementation(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = SteeredAgents(until="guidance")
    inp = ticket_input("STEER-1").model_copy(update={"auto": True})
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, implementing)
        reply = await handle.execute_update(
            TicketWorkflow.say_to,
            SayInput(text="Return floats for negative exponents.", author="bob"),
        )
        result = await handle.result()
        final = await handle.query(TicketWorkflow.status)
    assert reply.message.startswith("Guidance 1 recorded")
    assert fakes.heard is not None and [s.text for s in fakes.heard.said] == [
        "Return floats for negative exponents."
    ]
    guidance = final.steering.guidance
    assert [(g.id, g.author, g.used_in_revision) for g in guidance] == [(1, "bob", 2)]
    assert ("say", "bob") in [(d.kind, d.author) for d in final.decisions]
    assert result.status == Status.COMPLETED


async def test_a_stop_comment_reaches_the_running_implementation(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    fakes = SteeredAgents(until="stop")
    inp = ticket_input(key).model_copy(update={"auto": True})
    async with running_ticket(time_skipping_env, fakes, inp, workflow_id=f"ticket-{key}") as h:
        await wait_until(h, implementing)
        stop = comment_event(key, "/stop", author="carol-3", name="Carol")
        response = await http.post("/webhooks/jira", **jira_request(stop, "s-1"))
        assert response.json() == {"status": "accepted", "signal": "stop"}
        await h.result()
        final = await h.query(TicketWorkflow.status)
    assert fakes.heard is not None and fakes.heard.stop_by == "Carol"
    assert ("stop", "Carol") in [(d.kind, d.author) for d in final.decisions]
    assert final.steering.stop_requested_by == ""  # the stop ended the run it was sent to


async def test_a_comment_during_implementation_is_guidance_not_an_answer(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    fakes = SteeredAgents(until="guidance")
    inp = ticket_input(key).model_copy(update={"auto": True})
    async with running_ticket(time_skipping_env, fakes, inp, workflow_id=f"ticket-{key}") as h:
        await wait_until(h, implementing)
        said = comment_event(key, "Please keep the public names unchanged.")
        response = await http.post("/webhooks/jira", **jira_request(said, "g-1"))
        assert response.json() == {"status": "accepted", "signal": "say"}
        await h.result()
    assert fakes.heard is not None
    assert [s.text for s in fakes.heard.said] == ["Please keep the public names unchanged."]


async def test_guidance_is_refused_when_nothing_runs_that_could_use_it(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(questions=False)
    async with running_ticket(time_skipping_env, fakes, ticket_input("STEER-4")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        with pytest.raises(WorkflowUpdateFailedError) as refused:
            await handle.execute_update(TicketWorkflow.say_to, SayInput(text="hi", author="bob"))
        with pytest.raises(WorkflowUpdateFailedError):
            await handle.execute_update(TicketWorkflow.stop_now, StopInput(author="bob"))
        await handle.terminate("test over")
    message = str(refused.value.cause)
    assert "STEER-4 takes guidance while it implements or runs a review round" in message
    assert "awaiting_approval" in message


def test_the_status_shows_guidance_pending_until_a_revision_is_given_it() -> None:
    at = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    steering = Steering(
        guidance=[
            Guidance(id=1, text="Keep the flags.", author="bob", at=at, used_in_revision=2),
            Guidance(id=2, text="Floats for negatives.", author="ann", at=at),
        ],
        stop_requested_by="carol",
    )
    current = TicketStatus(
        key="STEER-5", phase=Phase.IMPLEMENTATION, status=Status.RUNNING, steering=steering
    )
    text = to_text(render_status(current, "http://ui"))
    assert "guidance 1 (given to revision 2): Keep the flags." in text
    assert "guidance 2 (pending: the next revision is given it): Floats for negatives." in text
    assert "stop asked by carol: after this revision" in text
