"""What an organisation sets up, end to end on the embedded stack: Temporal over mTLS for the
worker and the command line, approvers, a repository's own check command, a cost cap, and
guidance given to a running implementation."""

import asyncio
import base64
import json
import subprocess
import sys
from collections.abc import AsyncIterator

import pytest
from temporalio.client import Client
from temporalio.service import RPCError

from config import ROOT
from embedded.stack import Stack, child_env
from harness.model_server import FakeModelServer
from harness.processes import kill, start_worker
from harness.stacks import stack_settings
from integrations.jira.adf import adf_to_markdown, markdown_to_adf
from temporal.client import connect_temporal
from tests.e2e.organisation_stack import (
    COST_CAP,
    GUIDANCE,
    held_first_revision,
    organisation_model,
    organisation_stack,
)
from tests.e2e.stacks import admin, poll, pull_requests, running
from tests.e2e.test_commands import starter
from tests.support.tls_proxy import CertificateAuthority, tls_proxy
from workflows.ticket.messages import Status, TicketResult, TicketStatus

pytestmark = pytest.mark.e2e


def as_person(email: str) -> dict[str, str]:
    """Basic auth as a seeded Jira user, the way a person's API token signs in."""
    return {"Authorization": "Basic " + base64.b64encode(f"{email}:token".encode()).decode()}


def command(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`starter.py` with this environment."""
    return subprocess.run(
        [sys.executable, "starter.py", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


async def test_a_ticket_runs_with_the_worker_and_the_command_line_over_mtls(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    data = tmp_path_factory.mktemp("mtls")
    authority = CertificateAuthority(data, "test-ca")
    server = authority.issue("server", server=True)
    client_identity = authority.issue("client", server=False)
    settings = stack_settings(data)
    with tls_proxy(settings.temporal_address, server, client_ca=authority.identity.cert) as proxy:
        async with running(settings) as stack:
            # The stack's own worker reaches its dev server in plaintext: this one only over mTLS.
            stack.stop_service("worker")
            tls = {
                "TICKETSMITH_TEMPORAL_ENV_CONFIG": "true",
                "TICKETSMITH_TEMPORAL_ADDRESS": proxy.address,
                "TEMPORAL_ADDRESS": proxy.address,
                "TEMPORAL_TLS_SERVER_CA_CERT_PATH": str(authority.identity.cert),
                "TEMPORAL_TLS_CLIENT_CERT_PATH": str(client_identity.cert),
                "TEMPORAL_TLS_CLIENT_KEY_PATH": str(client_identity.key),
            }
            env = child_env(stack.settings) | tls
            env.pop("TICKETSMITH_TEMPORAL_HTTP_URL")  # status reads over gRPC, through the proxy
            log = stack.log_dir / "mtls-worker.log"
            worker = start_worker(env, log)
            try:
                started = command(env, "DEMO-2", "--auto")
                assert started.returncode == 0, started.stderr
                result = await finished(await connect_temporal(stack.settings), "DEMO-2")
                status = command(env, "status", "DEMO-2")
                no_cert = {k: v for k, v in env.items() if "CLIENT" not in k}
                refused = command(no_cert, "status", "DEMO-2")
            finally:
                kill(worker)
    assert result.status == Status.COMPLETED and result.pr_url, result.message
    assert "done / completed" in status.stdout and result.pr_url in status.stdout, status.stderr
    # The proxy is what it claims: without the client certificate the command line is refused.
    assert refused.returncode == 1 and "asks for a client certificate" in refused.stderr


@pytest.fixture(scope="module")
async def model() -> AsyncIterator[FakeModelServer]:
    with organisation_model() as server:
        yield server


@pytest.fixture(scope="module")
async def stack(
    tmp_path_factory: pytest.TempPathFactory, model: FakeModelServer
) -> AsyncIterator[Stack]:
    async with organisation_stack(tmp_path_factory.mktemp("organisation"), model) as started:
        yield started


async def status_of(client: Client, key: str) -> TicketStatus | None:
    """The ticket's status (None before it exists); a failed ticket fails the test."""
    try:
        now = await client.get_workflow_handle(f"ticket-{key}").query(
            "status", result_type=TicketStatus
        )
    except RPCError:
        return None
    assert now.status not in (Status.FAILED, Status.CANCELLED), now.message
    return now


async def reached(client: Client, key: str, wanted: Status) -> TicketStatus | None:
    """The ticket's status once it is `wanted`."""
    now = await status_of(client, key)
    return now if now is not None and now.status == wanted else None


async def comment(stack: Stack, key: str, email: str, text: str) -> None:
    """A person comments on the issue in the Jira emulator, which sends a signed webhook."""
    async with admin(stack.settings) as http:
        posted = await http.post(
            f"/rest/api/3/issue/{key}/comment",
            json={"body": markdown_to_adf(text)},
            headers=as_person(email),
        )
    assert posted.is_success, posted.text


async def jira_comments(stack: Stack, key: str) -> list[str]:
    """The issue's comments as markdown, oldest first."""
    async with admin(stack.settings) as http:
        found = (await http.get(f"/rest/api/3/issue/{key}/comment")).json()["comments"]
    return [adf_to_markdown(c["body"]) for c in found]


async def finished(client: Client, key: str, timeout_s: float = 300) -> TicketResult:
    """The ticket's result, failing after a deadline."""
    handle = client.get_workflow_handle(f"ticket-{key}", result_type=TicketResult)
    try:
        return await asyncio.wait_for(handle.result(rpc_timeout=None), timeout_s)
    except TimeoutError:
        raise AssertionError(f"{key} did not end within {timeout_s:.0f}s") from None


async def test_only_an_approver_decides_the_plan(stack: Stack) -> None:
    client = await connect_temporal(stack.settings)
    assert starter(stack, "APPR-1").returncode == 0
    await poll(lambda: reached(client, "APPR-1", Status.AWAITING_APPROVAL), "the plan")
    await comment(stack, "APPR-1", "carol@example.com", "/approve")

    async def refused() -> TicketStatus | None:
        now = await status_of(client, "APPR-1")
        # While the workflow looks the commenter up and replies, its status says running.
        if now is None or now.status != Status.AWAITING_APPROVAL:
            return None
        return now if any(d.kind == "refused" for d in now.decisions) else None

    async def replied() -> str | None:
        said = await jira_comments(stack, "APPR-1")
        return next((text for text in said if "may not approve" in text), None)

    waiting = await poll(refused, "the refusal of Carol's /approve")
    assert waiting.status == Status.AWAITING_APPROVAL
    # The reply is posted by an activity after the refusal is recorded.
    reply = await poll(replied, "the reply to Carol's /approve")
    assert reply.startswith("Carol Mendes may not approve plan v1. Who may:"), reply
    assert "bob-2" in reply
    refusal = next(d for d in waiting.decisions if d.kind == "refused")
    assert refusal.author == "Carol Mendes" and not refusal.unsigned

    await comment(stack, "APPR-1", "bob@example.com", "/approve")
    result = await finished(client, "APPR-1")
    final = result.as_status()
    assert result.status == Status.COMPLETED, result.message
    assert [(d.kind, d.author) for d in final.decisions] == [
        ("refused", "Carol Mendes"),
        ("approve", "Bob Reviewer"),
    ]


async def test_the_check_command_agents_md_names_is_run_and_reported(stack: Stack) -> None:
    client = await connect_temporal(stack.settings)
    assert starter(stack, "CHECK-1", "--auto").returncode == 0
    result = await finished(client, "CHECK-1")
    assert result.status == Status.COMPLETED and result.pr_url, result.message
    pulls = await pull_requests(stack.settings, "demo/checked")
    body = next(p["body"] for p in pulls if p["head"]["ref"] == result.branch)
    assert "`make check`: passed" in body, body


async def test_a_cost_cap_suspends_the_ticket_until_it_is_raised(stack: Stack) -> None:
    client = await connect_temporal(stack.settings)
    assert starter(stack, "COST-1", "--auto").returncode == 0
    paused = await poll(lambda: reached(client, "COST-1", Status.AWAITING_BUDGET), "the pause")
    assert paused.cost_cap == pytest.approx(COST_CAP)
    assert paused.cost.dollars >= COST_CAP and paused.cost.unpriced_tokens == 0
    assert "cost" in paused.message.lower(), paused.message
    raised = starter(stack, "budget", "COST-1", "+5usd")
    assert raised.returncode == 0, raised.stderr
    result = await finished(client, "COST-1")
    final = result.as_status()
    assert result.status == Status.COMPLETED and result.pr_url, result.message
    assert final.cost_cap == pytest.approx(COST_CAP + 5)
    assert final.cost.dollars > paused.cost.dollars


async def test_guidance_given_mid_implementation_reaches_the_next_revision(
    stack: Stack, model: FakeModelServer
) -> None:
    client = await connect_temporal(stack.settings)
    assert starter(stack, "STEER-1", "--auto").returncode == 0

    async def held() -> bool | None:
        await status_of(client, "STEER-1")
        return held_first_revision(model) or None

    await poll(held, "the first revision at the model")
    await comment(stack, "STEER-1", "alice@example.com", GUIDANCE)
    said = starter(stack, "say", "STEER-1", "Keep the tests short")
    assert said.returncode == 0, said.stderr

    async def recorded() -> TicketStatus | None:
        now = await status_of(client, "STEER-1")
        return now if now and len(now.steering.guidance) == 2 else None

    await poll(recorded, "both pieces of guidance recorded")
    model.released.set()
    result = await finished(client, "STEER-1")
    final = result.as_status()
    status = starter(stack, "status", "STEER-1", "--full")

    prompts = [json.dumps(c.body) for c in model.calls if c.task == "implement_file"]
    steered = [p for p in prompts if "steered" in p]
    first = next(i for i, p in enumerate(steered) if GUIDANCE not in p)
    later = [p for p in steered[first + 1 :] if GUIDANCE in p and "Keep the tests short" in p]
    assert result.status == Status.COMPLETED and result.tests_passed, result.message
    assert later, "no later revision's prompt quoted the guidance"
    says = [(d.kind, d.author, d.text) for d in final.decisions]
    assert ("say", "Alice Reporter", GUIDANCE) in says, says
    assert any(kind == "say" and text == "Keep the tests short" for kind, _, text in says), says
    assert {g.used_in_revision for g in final.steering.guidance} == {2}
    assert GUIDANCE in status.stdout and "Keep the tests short" in status.stdout, status.stdout
