"""Log lines: JSON off a terminal, with ticket context inside activities, secrets redacted."""

import dataclasses
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
import structlog
from temporalio import activity
from temporalio.testing import ActivityEnvironment

from config import ROOT
from observability.logs import REDACTED, configure_logging

TOKEN = "jira-token-6f1d9c"


@pytest.fixture
def json_logs(capsys: pytest.CaptureFixture[str]) -> Iterator[pytest.CaptureFixture[str]]:
    """Captured stderr (not a terminal, so JSON); logging is restored afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    saved = structlog.get_config()
    yield capsys
    root.handlers[:], root.level = handlers, level
    structlog.configure(**saved)


def configure() -> None:
    """Configure as the worker does, with one secret (too-short values are ignored)."""
    configure_logging(secrets=[TOKEN, "", "abc"])


def lines(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    """The JSON lines written so far."""
    return [json.loads(line) for line in capsys.readouterr().err.splitlines() if line]


async def test_activity_lines_carry_the_ticket(json_logs: pytest.CaptureFixture[str]) -> None:
    configure()
    env = ActivityEnvironment()
    child = "ticket-PROJ-7-implementation"
    env.info = dataclasses.replace(env.info, workflow_id=child, activity_type="plan")

    async def plan() -> None:
        with structlog.contextvars.bound_contextvars(phase="planning"):
            activity.logger.info("writing the plan")
        logging.getLogger("integrations.jira.client").warning("GET failed with token %s", TOKEN)

    await env.run(plan)
    first, second = lines(json_logs)
    assert first["event"] == "writing the plan"
    assert (first["workflow_id"], first["ticket_key"], first["phase"]) == (
        child,
        "PROJ-7",
        "planning",
    )
    assert first["activity"] == "plan" and "phase" not in second
    assert second["event"] == f"GET failed with token {REDACTED}"
    assert second["ticket_key"] == "PROJ-7"


def test_lines_outside_temporal_have_no_ticket(json_logs: pytest.CaptureFixture[str]) -> None:
    configure()
    structlog.get_logger("ticketsmith").info("started", detail=f"Bearer {TOKEN}")
    try:
        raise RuntimeError(f"token {TOKEN} refused")
    except RuntimeError:
        logging.getLogger("ticketsmith").exception("boom")
    started, boom = lines(json_logs)
    assert started["detail"] == f"Bearer {REDACTED}" and "ticket_key" not in started
    assert TOKEN not in boom["exception"] and "RuntimeError" in boom["exception"]


def test_the_webhook_app_logs_json_without_secrets() -> None:
    script = (
        "import logging\n"
        "from webhooks.app import serve\n"
        "serve()\n"
        f"logging.getLogger('uvicorn.error').warning('token {TOKEN} seen')\n"
        "logging.getLogger('ticketsmith.webhooks').warning('ignored a comment')\n"
    )
    # The app does not start without a webhook secret.
    env = dict(os.environ, TICKETSMITH_JIRA_TOKEN=TOKEN, TICKETSMITH_WEBHOOK_SECRET="log-test")
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    logged = [json.loads(line) for line in done.stderr.splitlines() if line]
    assert [(line["logger"], line["event"]) for line in logged] == [
        ("uvicorn.error", f"token {REDACTED} seen"),
        ("ticketsmith.webhooks", "ignored a comment"),
    ]
