"""A research step whose worker is killed (SIGKILL) resumes on another from its heartbeats.

Dev server, the tool server and two real worker processes, one after the other, with the
`openai` provider pointed at a fake model server that answers as the scripted reader does and
encrypted payloads. Each specialist's model call is held until the tool answers it got are in
its heartbeat details on the server; then the worker is killed, a new one starts, and the
report completes without any tool call made twice (the tool server's call log says so).
"""

import asyncio
import base64
import json
import os
import shutil
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from temporalio.client import Client, WorkflowHandle
from temporalio.testing import WorkflowEnvironment

from activities.research.journal import StepProgress, call_key
from config import Settings
from encryption.codec import data_converter
from encryption.store import payload_storage
from graphs.research.scripted import research_answer
from graphs.research.state import StepOutput
from harness.model_server import Call, FakeModelServer, task_of
from harness.processes import clean_env, dev_server, kill, start_worker, until
from research.launch import start_research
from tests.support.research import report_of, retried_attempts
from tests.support.toolserver import tool_server

pytestmark = pytest.mark.e2e
QUEUE = "research-resume-test"
QUESTION = "What is blocking the payments migration?"
KEYS = f"k1={base64.b64encode(os.urandom(32)).decode()}"
STEPS = {
    "jira_agent": "fetchTickets",
    "doc_agent": "parseDocs",
    "pdf_agent": "readPdfs",
    "search_agent": "searchContext",
}
# The steps' heartbeat timeout (graphs/definitions/research.yaml) passes before the retry.
RESUME_WAIT_S = 20 + 180


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[WorkflowEnvironment]:
    """A dev server whose client encrypts payloads with the workers' keys and reads their
    payload store (a report over the store's threshold is kept there)."""
    storage = payload_storage(
        tmp_path / "data" / "payloads", Settings().payload_store_threshold_kib * 1024
    )
    async with dev_server(data_converter(KEYS, storage)) as server:
        yield server


def scripted_brain(body: dict[str, Any]) -> str:
    """The scripted reader's answers, over HTTP."""
    return research_answer(*task_of(body))


def held(call: Call) -> bool:
    """Every specialist's model call waits (its tool calls are done by then)."""
    return call.task == "research_findings"


async def tool_calls(url: str) -> list[dict[str, Any]]:
    """The tool server's call log."""
    async with httpx.AsyncClient(base_url=url) as http:
        return list((await http.get("/_calls")).json())


def calls_of(log: list[dict[str, Any]], step: str) -> set[str]:
    """The calls (tool and arguments) a step made, by its task id."""
    return {call_key(c["tool"], c["arguments"]) for c in log if c["task"].endswith(f"/{step}")}


async def heartbeated(client: Client, handle: WorkflowHandle[Any, Any]) -> dict[str, Any]:
    """Each running specialist's heartbeated progress, and whether the payloads are encrypted."""
    found: dict[str, Any] = {}
    described = await handle.describe()
    for pending in described.raw_description.pending_activities:
        payloads = pending.heartbeat_details.payloads
        if pending.activity_type.name in STEPS and payloads:
            assert payloads[0].metadata["encoding"] == b"binary/encrypted"
            (details,) = await client.data_converter.decode(payloads)
            found[pending.activity_type.name] = StepProgress.model_validate(details)
    return found


async def test_a_killed_workers_steps_resume_without_calling_tools_again(
    env: WorkflowEnvironment, tmp_path: Path
) -> None:
    model = FakeModelServer(scripted_brain, hold=held)
    model.start()
    async with tool_server(tmp_path) as (toolserver_url, _):
        worker_env = clean_env(
            TICKETSMITH_TEMPORAL_ADDRESS=env.client.service_client.config.target_host,
            TICKETSMITH_TASK_QUEUE=QUEUE,
            TICKETSMITH_AGENT_TASK_QUEUE=QUEUE,
            TICKETSMITH_DATA_DIR=str(tmp_path / "data"),
            TICKETSMITH_TOOLSERVER_URL=toolserver_url,
            TICKETSMITH_ENCRYPTION_KEYS=KEYS,
            TICKETSMITH_METRICS_PORT="0",
            TICKETSMITH_MODEL_PROVIDER="openai",
            TICKETSMITH_OPENAI_MODEL="fake",
            OPENAI_BASE_URL=model.base_url,
        )
        workers = [start_worker(worker_env, tmp_path / "worker-1.log")]
        try:
            settings = Settings(task_queue=QUEUE, agent_task_queue=QUEUE)
            handle = (await start_research(env.client, settings, QUESTION)).handle

            async def every_answer_heartbeated() -> dict[str, StepProgress] | None:
                if model.count("research_findings") < len(STEPS):
                    return None
                progress = await heartbeated(env.client, handle)
                log = await tool_calls(toolserver_url)
                done = len(progress) == len(STEPS) and all(
                    set(p.answers) == calls_of(log, STEPS[agent]) for agent, p in progress.items()
                )
                return progress if done else None

            saved = await until(every_answer_heartbeated, 120, "the specialists' checkpoints")
            before_kill = await tool_calls(toolserver_url)
            kill(workers[0])
            model.released.set()
            workers.append(start_worker(worker_env, tmp_path / "worker-2.log"))
            result = await asyncio.wait_for(handle.result(), RESUME_WAIT_S)
            log = await tool_calls(toolserver_url)
            retried = await retried_attempts(handle)
        finally:
            for process in workers:
                kill(process)
            model.stop()
            shutil.rmtree(tmp_path / "data", ignore_errors=True)

    assert result.status == "completed", result.message
    report = report_of(result)
    assert any("[PAY-2]" in s.content for s in report.sections), report
    # Retried because their heartbeats stopped, not after the steps' whole 20-minute timeout.
    assert sorted((name, attempt) for name, attempt, _ in retried) == sorted(
        (agent, 2) for agent in STEPS
    ), retried
    assert all("heartbeat" in failure.lower() for *_, failure in retried), retried
    for agent, step in STEPS.items():
        made = calls_of(before_kill, step)
        assert made and len(saved[agent].answers) == len(made), agent
        details = json.dumps(saved[agent].model_dump(mode="json"))
        assert len(details) < 64_000, f"{agent} heartbeated {len(details)} characters"
        output = StepOutput.model_validate(result.state[step])
        assert output.attempt == 2, f"{agent} was not retried: {output}"
        assert (output.tool_calls, output.resumed_calls) == (0, len(made)), agent
    per_call = Counter(
        (c["task"], c["tool"], json.dumps(c["arguments"], sort_keys=True)) for c in log
    )
    repeated = {call: n for call, n in per_call.items() if n > 1}
    assert not repeated, f"tool calls made again after the kill: {repeated}"
    assert model.count("research_findings") == 2 * len(STEPS)  # held ones asked again
