"""A project's cost cap: a ticket that reaches it pauses, and raising the cap lets it go on."""

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from temporalio.api.sdk.v1 import WorkflowMetadata
from temporalio.client import WorkflowHandle
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from activities.costing import CostInterceptor
from tests.support.notices import check_row
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_paths import steps_of
from tests.workflows.test_ticket_workflow import (
    DEADLINE_S,
    awaiting,
    cancel_and_wait,
    ticket_input,
    wait_until,
)
from vocabulary.prices import parse_prices
from workflows.registry import WORKFLOWS
from workflows.ticket.messages import (
    AnswerInput,
    ApprovalInput,
    BudgetInput,
    Phase,
    Status,
    TicketInput,
    TicketResult,
    TicketStatus,
)
from workflows.ticket.workflow import TicketWorkflow

Handle = WorkflowHandle[TicketWorkflow, TicketResult]
# Ten cents an output token: the fakes' analysis (10 tokens) and questions (5) cost $1.50.
PRICES = parse_prices('{"test-model": {"input": 0, "output": 100000}}')


@asynccontextmanager
async def paused_ticket(
    env: WorkflowEnvironment, fakes: FakeActivities, inp: TicketInput
) -> AsyncIterator[tuple[Handle, TicketStatus]]:
    """The ticket on a worker that prices its tokens as the real worker does, answered and
    paused at a limit; its handle and status."""
    queue = f"tq-{uuid.uuid4()}"
    costs = CostInterceptor("test-model", PRICES)
    async with Worker(
        env.client, task_queue=queue, workflows=WORKFLOWS, activities=fakes.all(),
        interceptors=[costs],
    ):  # fmt: skip
        handle = await env.client.start_workflow(
            TicketWorkflow.run, inp, id=f"ticket-{inp.key}-{uuid.uuid4()}", task_queue=queue
        )
        await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
        await handle.signal(TicketWorkflow.answer, AnswerInput(text="floats"))
        yield handle, await wait_until(handle, awaiting(Status.AWAITING_BUDGET))


async def test_a_ticket_over_its_cost_cap_waits_for_a_higher_one(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    inp = ticket_input("CAP-1")
    inp.cost_cap = 1.2
    async with paused_ticket(time_skipping_env, fakes, inp) as (handle, paused):
        assert paused.cost.dollars == 1.5 and paused.cost.output_tokens == 15
        assert not fakes.calls["refine_requirements"]
        assert paused.message == "Waiting for a higher cost cap"
        assert steps_of(fakes)[-1] == "cost-cap-15"
        notice = fakes.calls["post_jira_comment"][-1].body
        assert "used $1.50 in model calls of its cost cap of $1.20 and is paused" in notice
        assert "`starter.py budget CAP-1 +Nusd` or a `/budget +$N` comment" in notice
        check_row("cost cap reached", **fakes.said())
        refinement = next(p for p in paused.usage if p.phase == Phase.REFINEMENT)
        assert refinement.cost.dollars == 1.5

        reply = await handle.execute_update(TicketWorkflow.raise_budget, BudgetInput(dollars=5))
        assert reply.message == "Cost cap is now $6.20 ($1.50 used)."
        approving = await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        assert approving.decisions[-1].text == "+$5.00 cost cap"
        # Refining (3 tokens) and planning (7) went on, and cost what they used.
        assert approving.cost.dollars == 2.5 and approving.cost.text(approving.cost_cap) == (
            "$2.50 of $6.20"
        )
        metadata = await handle.query("__temporal_workflow_metadata", result_type=WorkflowMetadata)
        assert "Cost: $2.50 of $6.20" in metadata.current_details  # what the Web UI shows
        await handle.signal(TicketWorkflow.approve, ApprovalInput(author="bob"))
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)

    assert len(fakes.calls["refine_requirements"]) == 1
    costs_by_phase = {u.phase: u.cost.text() for u in result.usage}
    assert costs_by_phase == {
        Phase.REFINEMENT: "$1.80",  # analysis, questions and refining: 18 tokens
        Phase.PLANNING: "$0.70",
        Phase.IMPLEMENTATION: "$2.00",
    }
    body = fakes.calls["open_pull_request"][0].body
    assert "## Model cost" in body
    assert "| refinement | 18 | 0 | 18 | $1.80 |" in body
    assert "| implementation | 20 | 0 | 20 | $2.00 |" in body
    assert "| total | 45 | 0 | 45 | $4.50 |" in body


async def test_raising_one_limit_pauses_again_at_the_other(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    inp = ticket_input("CAP-2")
    inp.token_budget, inp.cost_cap = 12, 1.2
    async with paused_ticket(time_skipping_env, fakes, inp) as (handle, paused):
        assert paused.message == "Waiting for more model token budget"
        notice = fakes.calls["post_jira_comment"][-1].body
        assert "used 15 model tokens ($1.50) of its token budget of 12 and is paused" in notice
        check_row("budget used up", **fakes.said())
        await handle.execute_update(TicketWorkflow.raise_budget, BudgetInput(tokens=100))
        capped = await wait_until(handle, lambda s: s.message == "Waiting for a higher cost cap")
        assert capped.status == Status.AWAITING_BUDGET and steps_of(fakes)[-1] == "cost-cap-15"
        assert not fakes.calls["refine_requirements"]
        await handle.signal(TicketWorkflow.add_budget, BudgetInput(dollars=1))
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await cancel_and_wait(handle)
    assert len(fakes.calls["refine_requirements"]) == 1
