"""A project's cost cap: a ticket that reaches it pauses, and raising the cap lets it go on."""

import uuid

from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from activities.costing import CostInterceptor
from activities.pricing import parse_prices
from tests.support.notices import check_row
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_paths import steps_of
from tests.workflows.test_ticket_workflow import (
    awaiting,
    cancel_and_wait,
    ticket_input,
    wait_until,
)
from workflows.messages import AnswerInput, BudgetInput, Phase, Status
from workflows.registry import WORKFLOWS
from workflows.ticket import TicketWorkflow

# Ten cents an output token: the fakes' analysis (10 tokens) and questions (5) cost $1.50.
PRICES = parse_prices('{"test-model": {"input": 0, "output": 100000}}')


async def test_a_ticket_over_its_cost_cap_waits_for_a_higher_one(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    inp = ticket_input("CAP-1")
    inp.cost_cap = 1.2
    queue = f"tq-{uuid.uuid4()}"
    costs = CostInterceptor("test-model", PRICES)
    async with Worker(
        time_skipping_env.client,
        task_queue=queue,
        workflows=WORKFLOWS,
        activities=fakes.all(),
        interceptors=[costs],
    ):
        handle = await time_skipping_env.client.start_workflow(
            TicketWorkflow.run, inp, id=f"ticket-CAP-1-{uuid.uuid4()}", task_queue=queue
        )
        await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
        await handle.signal(TicketWorkflow.answer, AnswerInput(text="floats"))
        paused = await wait_until(handle, awaiting(Status.AWAITING_BUDGET))
        assert paused.cost.dollars == 1.5 and paused.cost.output_tokens == 15
        assert not fakes.calls["refine_requirements"]
        assert paused.message == "Waiting for a higher cost cap"
        assert steps_of(fakes)[-1] == "cost-cap-15"
        notice = fakes.calls["post_jira_comment"][-1].body
        assert "used $1.50 in model calls of its cost cap of $1.20 and is paused" in notice
        assert "`starter.py budget CAP-1 +$N`" in notice
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
        await cancel_and_wait(handle)
    assert len(fakes.calls["refine_requirements"]) == 1
