"""Session-wide Temporal test servers (no downloads: binaries come from pip packages)."""

import os
from collections.abc import AsyncIterator, Iterator

import pytest
from temporalio.api.enums.v1 import IndexedValueType
from temporalio.api.operatorservice.v1 import AddSearchAttributesRequest
from temporalio.client import Client
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.testing import WorkflowEnvironment

from embedded.services import SEARCH_ATTRIBUTES
from harness.processes import guard_children, release_children, venv_binary

# The suite runs on the offline model whatever is installed or set in the shell; a test that
# needs a real model names it in its own settings (tests/e2e/test_local_model.py).
os.environ["TICKETSMITH_MODEL_PROVIDER"] = "offline"


async def register_search_attributes(client: Client) -> None:
    """Register our keyword search attributes on a test server."""
    await client.operator_service.add_search_attributes(
        AddSearchAttributesRequest(
            namespace=client.namespace,
            search_attributes=dict.fromkeys(
                SEARCH_ATTRIBUTES, IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD
            ),
        )
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """End-to-end modules first: under xdist they are the longest units, so they start early
    and the shorter files fill the workers around them instead of one stack running last."""
    items.sort(key=lambda item: "e2e" not in item.path.parts)


@pytest.fixture(scope="session", autouse=True)
def nothing_outlives_the_run() -> Iterator[None]:
    """Servers the run started die with it, also when it is killed (see embedded.reaper)."""
    yield
    release_children()


@pytest.fixture(scope="module")
async def time_skipping_env() -> AsyncIterator[WorkflowEnvironment]:
    """The time-skipping test server with our search attributes registered, one per module:
    under xdist a worker runs modules in no fixed order, and work one module leaves behind
    must not hold the clock of another's (it starts in well under a second)."""
    env = await WorkflowEnvironment.start_time_skipping(
        data_converter=pydantic_data_converter,
        test_server_existing_path=venv_binary("temporal-test-server"),
    )
    guard_children()
    await register_search_attributes(env.client)
    async with env:
        yield env
