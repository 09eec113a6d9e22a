"""A research step's journal: small heartbeat details that let a retry skip the calls made;
and a step's failures named for what failed."""

import base64
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import openai

from activities.research.agents import failure
from activities.research.journal import (
    MAX_PROGRESS_CHARS,
    StepProgress,
    ToolAnswer,
    ToolCallJournal,
)
from activities.research.tools import mcp_tools
from encryption.codec import data_converter
from graphs.research.calls import call
from graphs.research.sources import doc_sources, ticket_source
from tests.support.toolserver import tool_server

TICKETS = ["PAY-1", "PAY-2", "PAY-3", "PAY-4"]
DOCS = [
    "migration-runbook.md",
    "architecture.html",
    "security-review.pdf",
    "nimbuspay-contract.pdf",
]


class RecordedCheckpoint:
    """Keeps what would be heartbeated (there is no activity here)."""

    details: tuple[object, ...] = ()
    saves = 0

    def save(self, progress: object) -> None:
        self.details = (progress,)
        self.saves += 1


async def read_everything(url: str, journal: ToolCallJournal) -> list[Any]:
    """Every demo ticket and document as the agents turn them into sources, and a tool error."""
    async with mcp_tools(url, "wf/run/0/plan", journal) as tools:
        sources = [ticket_source(await call(tools, "fetch_ticket", {"key": k})) for k in TICKETS]
        for doc_id in DOCS:
            sources += doc_sources(await call(tools, "get_doc", {"doc_id": doc_id}))
        try:
            await call(tools, "fetch_ticket", {"key": "PAY-99"})
        except Exception as err:
            sources.append(str(err))
    return sources


async def tool_calls(url: str) -> int:
    async with httpx.AsyncClient(base_url=url) as http:
        return len((await http.get("/_calls")).json())


async def test_a_retry_reads_the_same_sources_from_small_encrypted_details(tmp_path: Path) -> None:
    keys = f"k1={base64.b64encode(os.urandom(32)).decode()}"
    converter = data_converter(keys)
    checkpoint = RecordedCheckpoint()
    first = ToolCallJournal(checkpoint, StepProgress(started_at=datetime.now(UTC)))  # type: ignore[arg-type]
    async with tool_server(tmp_path) as (url, _):
        read_first = await read_everything(url, first)
        assert await tool_calls(url) == len(TICKETS) + len(DOCS) + 1
        assert first.calls == checkpoint.saves == len(TICKETS) + len(DOCS) + 1

        payloads = await converter.encode(list(checkpoint.details))
        assert payloads[0].metadata["encoding"] == b"binary/encrypted"
        assert len(payloads[0].data) < MAX_PROGRESS_CHARS
        (decoded,) = await converter.decode(payloads)  # as a retry's heartbeat_details
        resumed = StepProgress.resumed(decoded, datetime.now(UTC))
        assert resumed.started_at == first.progress.started_at
        second = ToolCallJournal(RecordedCheckpoint(), resumed)  # type: ignore[arg-type]
        read_again = await read_everything(url, second)
        assert await tool_calls(url) == len(TICKETS) + len(DOCS) + 1  # nothing called again
    assert second.calls == 0 and second.resumed == len(TICKETS) + len(DOCS) + 1
    assert read_again == read_first
    assert "PAY-99" in read_again[-1]


def test_details_that_are_not_a_checkpoint_start_afresh() -> None:
    now = datetime.now(UTC)
    old = {"started_at": now.isoformat(), "tool_answers": {"x": {"content": []}}}
    assert StepProgress.resumed(old, now).answers == {}
    assert StepProgress.resumed(["not", "a", "mapping"], now).started_at == now
    assert StepProgress.resumed(None, now).answers == {}


async def test_an_answer_that_would_overgrow_the_details_is_not_kept(tmp_path: Path) -> None:
    big = "x" * (MAX_PROGRESS_CHARS - 200)
    progress = StepProgress(started_at=datetime.now(UTC))
    progress.answers["earlier call"] = ToolAnswer(structured={"text": big})
    journal = ToolCallJournal(RecordedCheckpoint(), progress)  # type: ignore[arg-type]
    async with tool_server(tmp_path) as (url, _), mcp_tools(url, "t", journal) as tools:
        ticket = await call(tools, "fetch_ticket", {"key": "PAY-2"})
    assert ticket["key"] == "PAY-2"
    assert list(journal.answers) == ["earlier call"]
    assert progress.size() < MAX_PROGRESS_CHARS


def test_a_failed_model_call_is_the_models_failure_not_the_tool_servers() -> None:
    request = httpx.Request("POST", "http://127.0.0.1:8181/v1/chat/completions")
    timed_out = failure(openai.APITimeoutError(request=request), "http://tools")
    assert timed_out.type == "ModelUnavailable" and not timed_out.non_retryable
    assert "the model call failed (APITimeoutError" in timed_out.message
    assert "tool server" not in timed_out.message
    refused = openai.BadRequestError(
        "context too long", response=httpx.Response(400, request=request), body=None
    )
    grouped = ExceptionGroup("session", [refused])  # as the MCP client's task group raises it
    assert failure(grouped, "http://tools").type == "ModelUnavailable"
    assert failure(grouped, "http://tools").non_retryable
