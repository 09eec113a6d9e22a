"""Re-record the graph workflow's replay histories: `python -m tests.histories.record_graphs`.

Runs each scenario of `tests/workflows/graph_fakes.py` (sequence, parallel, conditional both
ways, retry, error handler, human wait approved and expired) on the time-skipping server and
writes `graph-*.json` next to this file.
"""

import asyncio
import shutil
import sys
from pathlib import Path

from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.testing import WorkflowEnvironment

from tests.conftest import register_search_attributes
from tests.histories.record import save
from tests.workflows.graph_fakes import SCENARIOS, FakeAgents, running_graph


async def record(env: WorkflowEnvironment) -> list[str]:
    """Run every graph scenario and save its history; returns the files written."""
    written = []
    for name, scenario in SCENARIOS.items():
        workflow_id = f"record-{name}"
        agents = FakeAgents(scenario.failures)
        async with running_graph(
            env.client, agents, scenario.definition, scenario.inputs, workflow_id, f"record-{name}"
        ) as handle:
            await asyncio.wait_for(scenario.drive(handle), 60)
        await save(env.client, workflow_id, name)
        written.append(f"{name}.json")
    return written


async def main() -> None:
    """Record against a fresh time-skipping server."""
    binary = shutil.which("temporal-test-server", path=str(Path(sys.executable).parent))
    env = await WorkflowEnvironment.start_time_skipping(
        data_converter=pydantic_data_converter, test_server_existing_path=binary
    )
    async with env:
        await register_search_attributes(env.client)
        for name in await record(env):
            print(f"recorded tests/histories/{name}")  # noqa: T201


if __name__ == "__main__":
    asyncio.run(main())
