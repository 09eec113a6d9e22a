"""Jira comments through the webhook app: answers, approvals, rejections and budgets reach
real ticket workflows on the test server, once, and only when awaited."""

import httpx
from temporalio.testing import WorkflowEnvironment

from harness.jira_payloads import comment_event
from integrations.jira.adf import markdown_to_adf
from tests.webhooks.payloads import jira_request, server_comment_events, unique_key
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import awaiting, running_ticket, ticket_input, wait_until
from workflows.ticket.messages import ApprovalPolicy, Status
from workflows.ticket.workflow import TicketWorkflow


async def test_comments_answer_and_approve_only_when_awaited(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    fakes = FakeActivities()
    inp = ticket_input(key)

    async def post(event: dict, delivery: str) -> httpx.Response:
        return await http.post("/webhooks/jira", **jira_request(event, delivery=delivery))

    async with running_ticket(time_skipping_env, fakes, inp, workflow_id=f"ticket-{key}") as h:
        await wait_until(h, awaiting(Status.AWAITING_ANSWERS))
        early = await post(comment_event(key, "/approve"), "a-0")
        assert early.json() == {
            "status": "ignored",
            "reason": f"{key} is not waiting for an approval: it is awaiting_answers",
        }
        answer = comment_event(key, "Floats for *negative* exponents", comment_id="777")
        assert (await post(answer, "a-1")).status_code == 202
        duplicate = await post(answer, "a-1")
        assert duplicate.json() == {
            "status": "ignored",
            "reason": "delivery a-1 was already handled",
        }
        assert (await post(answer, "a-1-other-webhook")).status_code in (200, 202)
        await wait_until(h, awaiting(Status.AWAITING_APPROVAL))
        late = await post(comment_event(key, "one more thought"), "a-2")
        assert late.json()["reason"] == (
            f"{key} is not waiting for answers: it is awaiting_approval"
        )
        own = comment_event(key, "/approve", author="ticketsmith-bot", name="ticketsmith")
        assert (await post(own, "b-1")).json() == {"status": "ignored", "reason": "own comment"}
        assert (await h.query(TicketWorkflow.status)).status == Status.AWAITING_APPROVAL
        approve = await post(comment_event(key, "/approve", author="bob-2", name="Bob"), "c-1")
        assert approve.status_code == 202
        assert approve.json() == {"status": "accepted", "signal": "approve"}
        await wait_until(h, awaiting(Status.COMPLETED))
        after = await post(comment_event(key, "thanks!"), "c-2")
        assert after.json()["status"] == "ignored"
        decisions = (await h.query(TicketWorkflow.status)).decisions
    assert fakes.calls["refine_requirements"][0].answers == ["Floats for **negative** exponents"]
    assert [d.kind for d in decisions] == ["answer", "approve"]


async def test_reject_with_a_reason_replans(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    fakes = FakeActivities()
    async with running_ticket(
        time_skipping_env, fakes, ticket_input(key), workflow_id=f"ticket-{key}"
    ) as h:
        await wait_until(h, awaiting(Status.AWAITING_ANSWERS))
        await http.post("/webhooks/jira", **jira_request(comment_event(key, "ok"), "r-0"))
        await wait_until(h, awaiting(Status.AWAITING_APPROVAL))
        reject = comment_event(key, markdown_to_adf("/reject Also cover the CLI"))  # ADF body
        response = await http.post("/webhooks/jira", **jira_request(reject, "r-1"))
        assert response.json() == {"status": "accepted", "signal": "reject"}
        # the new plan's version is set a step before the ticket waits on it again
        await wait_until(h, lambda s: s.plan_version == 2 and s.status == Status.AWAITING_APPROVAL)
        await h.terminate("test over")  # a waiting ticket would hold the test server's clock
    assert fakes.calls["generate_plan"][1].feedback == ["Also cover the CLI"]


async def test_a_server_comment_by_the_bot_is_ignored(http: httpx.AsyncClient) -> None:
    event = comment_event(unique_key(), "/approve")
    event["comment"]["author"] = {"name": "ticketsmith-bot", "key": "ticketsmith-bot"}
    response = await http.post("/webhooks/jira", **jira_request(event))
    assert response.json() == {"status": "ignored", "reason": "own comment"}


async def test_budget_comment_raises_the_budget_in_any_state(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    inp = ticket_input(key).model_copy(update={"token_budget": 1000})
    async with running_ticket(
        time_skipping_env, FakeActivities(), inp, workflow_id=f"ticket-{key}"
    ) as h:
        await wait_until(h, awaiting(Status.AWAITING_ANSWERS))
        grant = comment_event(key, "/budget +50k", author="carol-3", name="Carol")
        response = await http.post("/webhooks/jira", **jira_request(grant, "g-1"))
        assert response.json() == {"status": "accepted", "signal": "add_budget"}
        current = await wait_until(h, lambda s: s.token_budget != 1000)
        unusable = comment_event(key, "/budget lots please")
        refused = await http.post("/webhooks/jira", **jira_request(unusable, "g-2"))
        after = await h.query(TicketWorkflow.status)
        await h.terminate("test over")  # a waiting ticket would hold the test server's clock
    assert current.token_budget == 51_000
    assert [(d.kind, d.author, d.text) for d in current.decisions] == [
        ("budget", "Carol", "+50000 tokens")
    ]
    assert refused.status_code == 422
    assert "`/budget lots` names no positive number of tokens" in refused.json()["error"]
    assert after.token_budget == 51_000 and after.answers == []  # not taken as an answer


async def test_server_comments_answer_through_the_issue_updated_event(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    fakes = FakeActivities()
    inp = ticket_input(key)
    created, updated = server_comment_events(key, "Floats for negative exponents")
    async with running_ticket(time_skipping_env, fakes, inp, workflow_id=f"ticket-{key}") as h:
        await wait_until(h, awaiting(Status.AWAITING_ANSWERS))
        bare = await http.post("/webhooks/jira", **jira_request(created, "s-1"))
        assert bare.status_code == 200 and "without its issue" in bare.json()["reason"]
        answer = await http.post("/webhooks/jira", **jira_request(updated, "s-2"))
        assert answer.json() == {"status": "accepted", "signal": "answer"}
        await wait_until(h, awaiting(Status.AWAITING_APPROVAL))
        await h.terminate("test over")  # a waiting ticket would hold the test server's clock
    assert fakes.calls["refine_requirements"][0].answers == ["Floats for negative exponents"]


async def test_a_cloud_comment_sent_as_both_events_counts_once(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    inp = ticket_input(key)
    cloud = comment_event(key, "/approve", author="bob-2", name="Bob")
    also = {
        **cloud,
        "webhookEvent": "jira:issue_updated",
        "issue_event_type_name": "issue_commented",
    }
    async with running_ticket(
        time_skipping_env, FakeActivities(), inp, workflow_id=f"ticket-{key}"
    ) as h:
        await wait_until(h, awaiting(Status.AWAITING_ANSWERS))
        await http.post("/webhooks/jira", **jira_request(comment_event(key, "ok"), "b-0"))
        await wait_until(h, awaiting(Status.AWAITING_APPROVAL))
        first = await http.post("/webhooks/jira", **jira_request(cloud, "b-1"))
        second = await http.post("/webhooks/jira", **jira_request(also, "b-2"))
        await wait_until(h, awaiting(Status.COMPLETED))
        decisions = (await h.query(TicketWorkflow.status)).decisions
    assert first.json()["signal"] == "approve"
    assert second.status_code in (200, 202)  # ignored, or dropped by the workflow as seen
    assert [d.kind for d in decisions] == ["answer", "approve"]


async def test_an_approve_comment_counts_only_from_an_approver_named_by_account_id(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    fakes = FakeActivities(questions=False)
    inp = ticket_input(key).model_copy(update={"approval": ApprovalPolicy(approvers=["bob-2"])})
    async with running_ticket(time_skipping_env, fakes, inp, workflow_id=f"ticket-{key}") as h:
        await wait_until(h, awaiting(Status.AWAITING_APPROVAL))
        # Bob's display name is not enough: approvers are named by the ids Jira sends.
        pretender = comment_event(key, "/approve", author="mallory-9", name="bob-2")
        assert (await http.post("/webhooks/jira", **jira_request(pretender, "g-1"))).is_success
        await wait_until(
            h,
            lambda s: (
                [d.kind for d in s.decisions] == ["refused"]
                and s.status == Status.AWAITING_APPROVAL
            ),
        )
        approver = comment_event(key, "/approve", author="bob-2", name="Bob Reviewer")
        assert (await http.post("/webhooks/jira", **jira_request(approver, "g-2"))).is_success
        await h.result()
        final = await h.query(TicketWorkflow.status)
    assert [(d.kind, d.author) for d in final.decisions] == [
        ("refused", "bob-2"),
        ("approve", "Bob Reviewer"),
    ]
    assert any("may not approve plan v1" in c.body for c in fakes.calls["post_jira_comment"])
