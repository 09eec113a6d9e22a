"""Injected latency and errors: per tool, seeded, set at start and changed at run time."""

from pathlib import Path
from typing import Any

import httpx
import pytest

from graphs.research.calls import http_status
from tests.support.toolserver import mcp_session, tool_server
from toolserver.faults import FaultProfile, ToolFault, ToolFaults, default_profile


def test_the_default_profile_waits_up_to_half_a_second_repeatably() -> None:
    profile = default_profile().model_copy(update={"seed": 42})
    first, second = ToolFaults(profile), ToolFaults(profile)
    delays = [first.take("fetch_ticket").delay_seconds for _ in range(20)]  # type: ignore[union-attr]
    assert all(0 <= d <= 0.5 for d in delays)
    assert len(set(delays)) > 10
    assert delays == [second.take("fetch_ticket").delay_seconds for _ in range(20)]  # type: ignore[union-attr]


def test_a_seeded_error_rate_hits_the_same_calls_every_run() -> None:
    profile = FaultProfile(
        seed=11, faults=[ToolFault(tool="search_web", status_code=500, rate=0.3)]
    )

    def outcomes() -> list[bool]:
        faults = ToolFaults(profile)
        return [faults.take("search_web") is not None for _ in range(40)]

    run = outcomes()
    assert 4 <= sum(run) <= 20
    assert run == outcomes()
    assert ToolFaults(profile).take("get_doc") is None


def test_a_bad_profile_names_the_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "faults.json"
    path.write_text('{"faults": [{"tool": "fetch_ticket", "rate": 2}]}')
    with pytest.raises(ValueError, match=r"faults.json.*rate"):
        FaultProfile.from_file(path)
    with pytest.raises(ValueError, match="does not exist"):
        FaultProfile.from_file(tmp_path / "missing.json")


async def call_status(url: str, tool: str, args: dict[str, Any]) -> int:
    """200 when the call succeeds, else the HTTP status the client saw."""
    try:
        async with mcp_session(url) as session:
            result = await session.call_tool(tool, args)
            assert not result.isError, result.content
            return 200
    except Exception as err:
        status = http_status(err)
        assert status is not None, f"no HTTP status in {err!r}"
        return status


async def test_errors_hit_only_their_tool_as_often_as_configured(tmp_path: Path) -> None:
    profile = FaultProfile(faults=[ToolFault(tool="fetch_ticket", status_code=500, times=2)])
    async with tool_server(tmp_path, profile) as (url, _):
        statuses = [await call_status(url, "fetch_ticket", {"key": "PAY-1"}) for _ in range(3)]
        assert statuses == [500, 500, 200]
        assert await call_status(url, "search_web", {"query": "webhooks"}) == 200
        async with httpx.AsyncClient(base_url=url) as http:
            metrics = (await http.get("/metrics")).text
        assert 'ticketsmith_toolserver_calls_total{tool="fetch_ticket"} 3.0' in metrics
        injected = (
            'ticketsmith_toolserver_errors_total{kind="injected",status="500",tool="fetch_ticket"}'
        )
        assert f"{injected} 2.0" in metrics
        assert (
            'ticketsmith_toolserver_call_duration_seconds_count{tool="search_web"} 1.0' in metrics
        )


async def test_faults_change_at_run_time(tmp_path: Path) -> None:
    async with tool_server(tmp_path) as (url, _), httpx.AsyncClient(base_url=url) as http:
        assert await call_status(url, "get_doc", {"doc_id": "migration-runbook.md"}) == 200
        profile = {"seed": 1, "faults": [{"tool": "get_doc|list_docs", "status_code": 503}]}
        assert (await http.put("/_faults", json=profile)).status_code == 200
        assert await call_status(url, "get_doc", {"doc_id": "migration-runbook.md"}) == 503
        assert await call_status(url, "list_docs", {}) == 503
        current = (await http.get("/_faults")).json()
        assert current["faults"][0]["tool"] == "get_doc|list_docs"
        bad = await http.put("/_faults", json={"faults": [{"tool": "(", "status_code": 500}]})
        assert bad.status_code == 422 and "regular expression" in bad.json()["detail"]
        assert (await http.delete("/_faults")).status_code == 204
        assert await call_status(url, "get_doc", {"doc_id": "migration-runbook.md"}) == 200
