"""The webhook app over ASGI with its Temporal client on the time-skipping test server."""

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from pydantic import SecretStr
from temporalio.testing import WorkflowEnvironment

from config import Settings
from tests.webhooks.payloads import SECRET
from webhooks.app import create_app


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    projects = tmp_path / "projects.toml"
    projects.write_text('[projects.WEB]\nrepository = "demo/calc"\n')
    queue = f"hooks-{uuid.uuid4()}"
    return Settings(
        webhook_secret=SecretStr(SECRET),
        projects_file=projects,
        task_queue=queue,
        agent_task_queue=queue,
        jira_start_label="ticketsmith",
    )


@pytest.fixture
async def app(settings: Settings, time_skipping_env: WorkflowEnvironment) -> AsyncIterator[FastAPI]:
    app = create_app(settings, client=time_skipping_env.client)
    async with app.router.lifespan_context(app):
        yield app


@pytest.fixture
async def http(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """The app over ASGI, with its Temporal client pointing at the test server."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://hooks") as client:
        yield client
