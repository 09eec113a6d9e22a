"""A dev server for these tests: real time, nothing shared with the time-skipping tests."""

from collections.abc import AsyncIterator

import pytest
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.testing import WorkflowEnvironment

from harness.processes import guard_children
from tests.conftest import venv_binary


@pytest.fixture(scope="package")
async def dev_server() -> AsyncIterator[WorkflowEnvironment]:
    """An in-memory dev server on a free port, without the Web UI."""
    env = await WorkflowEnvironment.start_local(
        data_converter=pydantic_data_converter,
        dev_server_existing_path=venv_binary("temporal"),
        dev_server_extra_args=["--headless"],
    )
    guard_children()
    async with env:
        yield env
