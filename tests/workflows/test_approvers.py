"""Who may approve a plan: named approvers, Jira groups, the reporter, several approvals; a
refused verdict gets a reply on Jira, is in the decisions, and the ticket keeps waiting."""

import pytest
from temporalio.testing import WorkflowEnvironment

from tests.support.notices import check_row
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import awaiting, running_ticket, ticket_input, wait_until
from workflows.ticket.messages import (
    ApprovalInput,
    ApprovalPolicy,
    RejectionInput,
    Status,
    TicketInput,
)
from workflows.ticket.workflow import TicketWorkflow


def governed(key: str, **policy: object) -> TicketInput:
    inp = ticket_input(key)
    return inp.model_copy(update={"approval": ApprovalPolicy.model_validate(policy)})


def approval(who: str, delivery: str | None = None) -> ApprovalInput:
    return ApprovalInput(author=who.title(), author_ids=[who], delivery_id=delivery)


async def test_a_non_approver_is_refused_with_a_reply_and_an_approver_goes_through(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(questions=False)
    inp = governed("GOV-1", approvers=["bob-2"])
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await handle.signal(TicketWorkflow.approve, approval("mallory-9"))
        refused = await wait_until(
            handle,
            lambda s: (
                any(d.kind == "refused" for d in s.decisions)
                and s.status == Status.AWAITING_APPROVAL
            ),
        )
        await handle.signal(TicketWorkflow.approve, approval("bob-2"))
        result = await handle.result()
        final = await handle.query(TicketWorkflow.status)
    reply = "Mallory-9 may not approve plan v1. Who may: bob-2."
    assert [c.body for c in fakes.calls["post_jira_comment"] if "may not" in c.body] == [reply]
    assert [(d.kind, d.author) for d in refused.decisions] == [("refused", "Mallory-9")]
    assert result.status == Status.COMPLETED
    assert [(d.kind, d.author) for d in final.decisions] == [
        ("refused", "Mallory-9"),
        ("approve", "Bob-2"),
    ]
    assert fakes.calls["look_up_approver"] == []  # named approvers need no lookup


async def test_a_plan_needing_two_approvals_counts_each_approver_once(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(questions=False)
    inp = governed("GOV-2", approvers=["bob-2", "carol-3"], required=2)
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await handle.signal(TicketWorkflow.approve, approval("bob-2", "d-1"))
        await handle.signal(TicketWorkflow.approve, approval("bob-2", "d-2"))  # again: once
        once = await wait_until(
            handle,
            lambda s: len(s.decisions) == 1 and s.status == Status.AWAITING_APPROVAL,
        )
        await handle.signal(TicketWorkflow.approve, approval("carol-3", "d-3"))
        result = await handle.result()
        final = await handle.query(TicketWorkflow.status)
    assert once.decisions[0].text == "plan v1 (1 of 2 approvals)"
    assert [d.text for d in final.decisions] == [
        "plan v1 (1 of 2 approvals)",
        "plan v1 (2 of 2 approvals)",
    ]
    assert result.status == Status.COMPLETED


async def test_group_members_may_approve_and_the_reporter_may_not(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(questions=False)
    fakes.groups = {"bob-2": ["release-managers"], "alice-1": ["release-managers"]}
    inp = governed("GOV-3", approvers=["group:release-managers"], reporter_may_approve=False)
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        await handle.signal(TicketWorkflow.approve, approval("alice-1"))  # the reporter
        await wait_until(
            handle,
            lambda s: len(s.decisions) == 1 and s.status == Status.AWAITING_APPROVAL,
        )
        await handle.signal(
            TicketWorkflow.reject, RejectionInput(reason="no", author="Erin", author_ids=["erin-5"])
        )
        await wait_until(
            handle,
            lambda s: len(s.decisions) == 2 and s.status == Status.AWAITING_APPROVAL,
        )
        await handle.signal(TicketWorkflow.approve, approval("bob-2"))
        await handle.result()
        final = await handle.query(TicketWorkflow.status)
    check_row("verdict refused", **fakes.said())
    replies = [c.body for c in fakes.calls["post_jira_comment"] if "may not" in c.body]
    assert replies == [
        "Alice-1 may not approve plan v1: the ticket's reporter does not decide its plan. "
        "Who may: members of the group release-managers (not the ticket's reporter).",
        "Erin may not reject plan v1. "
        "Who may: members of the group release-managers (not the ticket's reporter).",
    ]
    assert [d.kind for d in final.decisions] == ["refused", "refused", "approve"]
    assert [c.groups for c in fakes.calls["look_up_approver"]] == [["release-managers"]] * 3


async def test_the_command_line_is_held_to_the_same_rule(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities(questions=False)
    inp = governed("GOV-4", approvers=["bob"])
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
        refused = await handle.execute_update(
            TicketWorkflow.approve_plan, ApprovalInput(author="eve", author_ids=["eve"])
        )
        accepted = await handle.execute_update(
            TicketWorkflow.approve_plan, ApprovalInput(author="bob", author_ids=["bob"])
        )
        result = await handle.result()
        final = await handle.query(TicketWorkflow.status)
    assert not refused.accepted and refused.message == "eve may not approve plan v1. Who may: bob."
    assert accepted.accepted and accepted.message == "bob's verdict on plan v1 is recorded."
    assert [(d.kind, d.author) for d in final.decisions] == [
        ("refused", "eve"),
        ("approve", "bob"),
    ]
    assert result.status == Status.COMPLETED


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        ({}, "anyone on the issue"),
        ({"approvers": ["bob", "group:leads"], "required": 2}, "bob, members of the group "
         "leads; the plan needs 2 approvals"),
        ({"reporter_may_approve": False}, "anyone on the issue (not the ticket's reporter)"),
    ],
)  # fmt: skip
def test_the_rule_says_who_may_approve(policy: dict[str, object], expected: str) -> None:
    assert ApprovalPolicy.model_validate(policy).describe() == expected
