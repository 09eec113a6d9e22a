"""Every path of the ticket workflow, on the time-skipping server with fake activities."""

import asyncio
from datetime import timedelta

import pytest
from temporalio.client import WorkflowFailureError
from temporalio.exceptions import ApplicationError, CancelledError
from temporalio.testing import WorkflowEnvironment

from tests.support.notices import check_row
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import (
    DEADLINE_S,
    awaiting,
    cancel_and_wait,
    running_ticket,
    ticket_input,
    wait_until,
)
from workflows.ticket.messages import (
    AnswerInput,
    ApprovalInput,
    BudgetInput,
    RejectionInput,
    Status,
    WaitPolicy,
)
from workflows.ticket.workflow import TicketWorkflow


def steps_of(fakes: FakeActivities) -> list[str]:
    """The step part of every posted comment's marker, in order."""
    return [call.marker.rsplit("/", 1)[1] for call in fakes.calls["post_jira_comment"]]


async def wait_for_calls(fakes: FakeActivities, name: str, count: int) -> None:
    """Wait until an activity was called `count` times."""
    deadline = asyncio.get_running_loop().time() + DEADLINE_S
    while len(fakes.calls[name]) < count:
        assert asyncio.get_running_loop().time() < deadline, f"{name}: {fakes.calls[name]}"
        await asyncio.sleep(0.02)


async def test_reminder_fires_after_the_interval(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities()
    async with running_ticket(time_skipping_env, fakes, ticket_input("WAIT-1")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
        await time_skipping_env.sleep(timedelta(hours=23))
        assert steps_of(fakes) == ["questions-1"]
        await time_skipping_env.sleep(timedelta(hours=2))
        await wait_for_calls(fakes, "post_jira_comment", 2)
        assert steps_of(fakes) == ["questions-1", "reminder-1-1"]
        assert "still waiting for answers" in fakes.calls["post_jira_comment"][1].body
        check_row("reminder", **fakes.said())
        await handle.signal(TicketWorkflow.answer, AnswerInput(text="floats"))
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await cancel_and_wait(handle)


async def test_expires_after_the_limit(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities()
    inp = ticket_input("WAIT-2")
    inp.waits = WaitPolicy(
        reminder_interval=timedelta(hours=24), max_reminders=2, expire_after=timedelta(days=7)
    )
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)
        described = await handle.describe()
    assert described.close_time and described.start_time
    elapsed = described.close_time - described.start_time

    assert result.status == Status.EXPIRED
    assert timedelta(days=7) <= elapsed < timedelta(days=7, hours=1)
    assert steps_of(fakes) == ["questions-1", "reminder-1-1", "reminder-1-2", "expired-1"]
    assert "starter.py WAIT-2 --restart" in fakes.calls["post_jira_comment"][-1].body
    check_row("wait expired", **fakes.said())
    assert not fakes.calls["refine_requirements"]


async def test_sixth_plan_never_happens(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities(questions=False)
    async with running_ticket(time_skipping_env, fakes, ticket_input("PLAN-1")) as handle:
        for version in range(1, 6):
            await wait_until(
                handle,
                lambda s, v=version: s.plan_version == v and s.status == Status.AWAITING_APPROVAL,
            )
            await handle.signal(TicketWorkflow.reject, RejectionInput(reason=f"fix {version}"))
        with pytest.raises(WorkflowFailureError) as failed:
            await asyncio.wait_for(handle.result(), DEADLINE_S)

    cause = failed.value.cause
    assert isinstance(cause, ApplicationError) and cause.type == "PlanRejectedTooOften"
    assert [call.version for call in fakes.calls["generate_plan"]] == [1, 2, 3, 4, 5]
    assert fakes.calls["generate_plan"][4].feedback == ["fix 1", "fix 2", "fix 3", "fix 4"]
    assert "rejected 5 times" in fakes.calls["post_jira_comment"][-1].body
    plan_v2 = fakes.calls["post_jira_comment"][1].body
    assert "Changes since v1" in plan_v2 and "fix 1" in plan_v2
    check_row("plan rewritten", **fakes.said())
    check_row("failed", **fakes.said())


async def test_cancel_reports_where_the_branch_is(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities()
    async with running_ticket(time_skipping_env, fakes, ticket_input("STOP-1")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
        await handle.cancel()
        with pytest.raises(WorkflowFailureError) as failed:
            await asyncio.wait_for(handle.result(), DEADLINE_S)
        final = await handle.query(TicketWorkflow.status)

    assert isinstance(failed.value.cause, CancelledError)
    assert final.status == Status.CANCELLED
    last = fakes.calls["post_jira_comment"][-1]
    assert last.marker.endswith("/cancelled")
    assert "ticketsmith/STOP-1-add-power" in last.body
    assert "cancelled" in fakes.calls["notify_discord"][-1].content
    check_row("cancelled", **fakes.said())


async def test_a_project_that_implements_by_hand_ends_at_the_approval(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(questions=False)
    inp = ticket_input("HAND-1", implement=False)
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await handle.signal(TicketWorkflow.approve, ApprovalInput(author="bob"))
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)

    assert result.status == Status.COMPLETED and result.pr_url is None
    assert not fakes.calls["implement_changes"]
    check_row("plan approved, implemented by hand", **fakes.said())


async def test_auto_mode_goes_straight_to_a_pull_request(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    inp = ticket_input("AUTO-1", implement=False)
    inp.auto = True
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)

    assert result.status == Status.COMPLETED and result.pr_url
    assert not fakes.calls["generate_questions"]
    assert fakes.calls["refine_requirements"][0].answers == []
    assert steps_of(fakes) == ["plan-v1", "pull-request"]


async def test_over_budget_waits_for_more(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities()
    inp = ticket_input("COST-1")
    inp.token_budget = 12  # analysis (10) and questions (5) use it up
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
        await handle.signal(TicketWorkflow.answer, AnswerInput(text="floats"))
        paused = await wait_until(handle, awaiting(Status.AWAITING_BUDGET))
        assert paused.tokens == 15 and not fakes.calls["refine_requirements"]
        assert steps_of(fakes)[-1] == "budget-15"
        check_row("budget used up", **fakes.said())
        reply = await handle.execute_update(TicketWorkflow.raise_budget, BudgetInput(tokens=100))
        assert "112" in reply.message
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await cancel_and_wait(handle)
    assert len(fakes.calls["refine_requirements"]) == 1


async def test_follow_up_rounds_are_bounded(time_skipping_env: WorkflowEnvironment) -> None:
    fakes = FakeActivities(followup_rounds=5)
    inp = ticket_input("MORE-1")
    inp.max_followup_rounds = 2
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        for number in range(1, 4):
            asked = await wait_until(
                handle,
                lambda s, n=number: (
                    s.status == Status.AWAITING_ANSWERS
                    and len(fakes.calls["refine_requirements"]) == n - 1
                ),
            )
            expected = "Negative exponents?" if number == 1 else f"Follow-up {number - 1}?"
            assert [q.text for q in asked.questions] == [expected]
            assert asked.question_round == number  # tells a round from one that repeats it
            await handle.signal(TicketWorkflow.answer, AnswerInput(text=f"answer {number}"))
        planned = await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await cancel_and_wait(handle)

    assert planned.questions == []
    last = fakes.calls["refine_requirements"][-1]
    assert last.answers == ["answer 1", "answer 2", "answer 3"]
    assert [q.text for q in last.questions] == [
        "Negative exponents?",
        "Follow-up 1?",
        "Follow-up 2?",
    ]
    assert len(fakes.calls["refine_requirements"]) == 3  # two follow-up rounds, then planning
    assert steps_of(fakes)[:3] == ["questions-1", "questions-2", "questions-3"]


async def test_a_follow_up_round_does_not_ask_again_what_was_answered(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(followup_rounds=1)
    fakes.repeat_questions = True
    inp = ticket_input("MORE-2")
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
        await handle.signal(TicketWorkflow.answer, AnswerInput(text="Floats."))
        second = await wait_until(
            handle,
            lambda s: s.status == Status.AWAITING_ANSWERS and s.question_round == 2,
        )
        assert [q.text for q in second.questions] == ["Follow-up 1?"]  # not the first again
        await handle.signal(TicketWorkflow.answer, AnswerInput(text="Yes."))
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await cancel_and_wait(handle)
    asked = fakes.calls["refine_requirements"][-1].questions
    assert [q.text for q in asked] == ["Negative exponents?", "Follow-up 1?"]


def test_questions_compare_without_case_spacing_or_closing_marks() -> None:
    from graphs.schemas import Question
    from workflows.ticket.questions import unasked

    asked = [Question(text="Negative exponents?", why="")]
    pending = [
        Question(text="  negative   EXPONENTS ", why=""),
        Question(text="Zero to a negative power?", why=""),
        Question(text="zero to a negative power?", why=""),
    ]
    assert [q.text for q in unasked(pending, asked)] == ["Zero to a negative power?"]


async def test_the_time_for_work_leaves_out_the_waits_for_people(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    inp = ticket_input("TIME-1")
    inp.work_minutes = 20
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
        await time_skipping_env.sleep(timedelta(hours=5))
        await handle.signal(TicketWorkflow.answer, AnswerInput(text="floats"))
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await handle.signal(TicketWorkflow.approve, ApprovalInput(author="bob"))
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)
        started = (await handle.describe()).start_time
    assert result.status == Status.COMPLETED and started is not None
    finish_by = fakes.calls["implement_changes"][0].finish_by
    assert finish_by is not None
    # the five hours of waiting are not work: the 20 minutes count from after them
    assert started + timedelta(hours=5, minutes=19) <= finish_by
    assert finish_by <= started + timedelta(hours=6)


async def test_a_ticket_without_a_time_for_work_has_no_end(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(questions=False)
    inp = ticket_input("TIME-2")
    inp.auto = True
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await asyncio.wait_for(handle.result(), DEADLINE_S)
    assert fakes.calls["implement_changes"][0].finish_by is None
