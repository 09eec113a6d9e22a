"""Re-record the research graph's replay history: `python -m tests.histories.record_research`.

Runs `graphs/definitions/research.yaml` with the real agents (scripted reader), the tool
server and the Jira emulator on a dev server, with 30% of tool calls answered 500 (seeded)
so the history holds retried steps, and writes `research-retried.json` next to this file.
"""

import asyncio
import tempfile
from pathlib import Path

import httpx
from temporalio.common import SearchAttributeKey
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.testing import WorkflowEnvironment

from graphs.research.scripted import research_reader
from research.launch import start_research
from tests.conftest import venv_binary
from tests.histories.record import save
from tests.support.research import FACTS, SEARCH_ATTRIBUTES, research_worker
from tests.support.toolserver import tool_server

NAME, WORKFLOW_ID = "research-retried", "record-research-retried"
PROFILE = {"seed": 3, "faults": [{"tool": ".*", "status_code": 500, "rate": 0.3}]}


async def main() -> None:
    """Record against a fresh dev server."""
    env = await WorkflowEnvironment.start_local(
        data_converter=pydantic_data_converter,
        dev_server_existing_path=venv_binary("temporal"),
        dev_server_extra_args=["--headless"],
        search_attributes=[SearchAttributeKey.for_keyword(n) for n in SEARCH_ATTRIBUTES],
    )
    data = Path(tempfile.mkdtemp(prefix="record-research-"))
    async with env, tool_server(data) as (url, _):
        async with httpx.AsyncClient(base_url=url) as http:
            (await http.put("/_faults", json=PROFILE)).raise_for_status()
        async with research_worker(env.client, url, research_reader(), data) as worker:
            run = await start_research(env.client, worker.settings, FACTS.question, WORKFLOW_ID)
            await asyncio.wait_for(run.handle.result(), 120)
        await save(env.client, WORKFLOW_ID, NAME)
    print(f"recorded tests/histories/{NAME}.json")  # noqa: T201


if __name__ == "__main__":
    asyncio.run(main())
