"""Without a webhook secret the app does not start; only TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED makes
it take unsigned deliveries, and then every answer says "unsigned", and so does the status of
every ticket they reach."""

import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from cli.status.render import render_status, to_text
from config import ROOT, Settings
from harness.jira_payloads import comment_event
from harness.processes import clean_env, free_port
from tests.webhooks.payloads import github_request, jira_request, labels_event, unique_key
from tests.webhooks.test_github_routes import REPOSITORY, github_api, moved
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_review_phase import following
from tests.workflows.test_ticket_workflow import awaiting, running_ticket, wait_until
from webhooks.app import create_app
from webhooks.security import WebhookSecretError
from webhooks.unsigned import HEADER
from workflows.registry import WORKFLOWS
from workflows.ticket.messages import Status

MAKE_ONE = 'python -c "import secrets; print(secrets.token_hex(32))"'


def unsigned(tmp_path: Path, repository: str = "demo/calc") -> Settings:
    """Settings that take unsigned deliveries, on a task queue of their own."""
    projects = tmp_path / "projects.toml"
    projects.write_text(f'[projects.WEB]\nrepository = "{repository}"\n')
    queue = f"unsigned-{uuid.uuid4()}"
    return Settings(
        webhook_secret=None, webhook_allow_unsigned=True, projects_file=projects,
        task_queue=queue, agent_task_queue=queue, github_api_url="http://github.test",
    )  # fmt: skip


@pytest.mark.parametrize("secret", [None, SecretStr(""), SecretStr("  \n")])
def test_without_a_secret_the_app_refuses_to_start(secret: SecretStr | None) -> None:
    with pytest.raises(WebhookSecretError) as refused:
        create_app(Settings(webhook_secret=secret, webhook_allow_unsigned=False))
    line = str(refused.value)
    assert "\n" not in line
    assert line.startswith("TICKETSMITH_WEBHOOK_SECRET is not set")
    assert MAKE_ONE in line and "TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED=true" in line


def test_a_secret_and_the_unsigned_setting_together_are_refused() -> None:
    both = Settings(webhook_secret=SecretStr("s"), webhook_allow_unsigned=True)
    with pytest.raises(WebhookSecretError, match="are both set"):
        create_app(both)


def test_the_served_app_exits_with_one_line_saying_why(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "uvicorn", "--factory", "webhooks.app:serve",
            "--app-dir", str(ROOT), "--port", str(free_port())]  # fmt: skip
    done = subprocess.run(
        argv, cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("webhook app not started: TICKETSMITH_WEBHOOK_SECRET is not set")
    assert MAKE_ONE in lines[0]


def says_unsigned(response: httpx.Response) -> bool:
    """The answer carries the header and, being a JSON object, the field."""
    return "not checked" in response.headers[HEADER] and response.json()["unsigned"] is True


async def test_jira_deliveries_are_taken_unsigned_and_the_ticket_says_so(
    tmp_path: Path, time_skipping_env: WorkflowEnvironment
) -> None:
    settings = unsigned(tmp_path)
    client = time_skipping_env.client
    key = unique_key()
    app = create_app(settings, client=client)
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://hooks") as http,
        Worker(
            client, task_queue=settings.task_queue, workflows=WORKFLOWS,
            activities=FakeActivities().all(),
        ),
    ):  # fmt: skip
        health = await http.get("/healthz")
        started = await http.post(
            "/webhooks/jira", **jira_request(labels_event(key, [], ["ticketsmith"]), secret=None)
        )
        handle = client.get_workflow_handle(f"ticket-{key}", result_type=None)
        asking = await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))  # type: ignore[arg-type]
        answer = comment_event(key, "Floats for negative exponents")
        forged = await http.post("/webhooks/jira", **jira_request(answer, "u-2", secret="guess"))
        planned = await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))  # type: ignore[arg-type]
        bad = await http.post("/webhooks/jira", **jira_request(b"{", "u-3", secret=None))
        await handle.terminate("test over")
    assert health.json() == {"status": "ok", "unsigned": True}
    assert started.status_code == 202 and started.json()["started"] is True
    assert forged.json() == {"status": "accepted", "signal": "answer", "unsigned": True}
    assert bad.status_code == 400
    assert all(says_unsigned(r) for r in (health, started, forged, bad))
    assert asking.unsigned_deliveries == 1  # its start
    assert planned.unsigned_deliveries == 2
    assert [(d.kind, d.unsigned) for d in planned.decisions] == [("answer", True)]
    shown = to_text(render_status(planned, "http://ui"))
    assert "Alice Reporter answer (unsigned delivery)" in shown
    assert "unsigned: 2 webhook deliveries reached this ticket" in shown


async def test_github_deliveries_are_taken_unsigned_and_the_ticket_says_so(
    tmp_path: Path, time_skipping_env: WorkflowEnvironment
) -> None:
    settings = unsigned(tmp_path, REPOSITORY)
    key = unique_key()
    branch = f"ticketsmith/{key}-add-power"
    inp = following(key)
    inp.project.repository = REPOSITORY
    app = create_app(settings, time_skipping_env.client, github_api(branch))
    transport = httpx.ASGITransport(app=app)
    fakes = FakeActivities()
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://hooks") as http,
        running_ticket(time_skipping_env, fakes, inp, workflow_id=f"ticket-{key}") as handle,
    ):
        before = await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        status: Any = moved("status", None, branch, state="failure", sha="sha2", context="ci")
        posted = await http.post("/webhooks/github", **github_request("status", status, None))
        after = await wait_until(handle, lambda s: s.unsigned_deliveries == 1)
        await handle.terminate("test over")
    assert before.unsigned_deliveries == 0
    assert posted.status_code == 202 and says_unsigned(posted)
    assert posted.json()["signal"] == "check_completed"
    assert after.pull_request is not None
    assert [(c.name, c.conclusion) for c in after.pull_request.checks] == [("ci", "failure")]
