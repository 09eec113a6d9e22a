"""The embedded stack as processes on free ports and a private data directory, per module."""

from collections.abc import AsyncIterator

import pytest

from embedded.stack import Stack
from harness.stacks import stack_settings
from tests.e2e.stacks import running


@pytest.fixture(scope="module")
async def stack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stack]:
    """The whole embedded stack on free ports and a private data directory."""
    async with running(stack_settings(tmp_path_factory.mktemp("stack"))) as started:
        yield started
