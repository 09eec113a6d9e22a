"""The call log: every tool call with its arguments, the caller's task and the status it got."""

from pathlib import Path

import httpx

from tests.support.toolserver import mcp_session, tool_server
from toolserver.faults import FaultProfile, ToolFault


async def test_every_call_is_logged_with_its_task_and_status(tmp_path: Path) -> None:
    profile = FaultProfile(faults=[ToolFault(tool="search_web", status_code=500, times=1)])
    async with tool_server(tmp_path, profile) as (url, _), httpx.AsyncClient(base_url=url) as http:
        async with mcp_session(url, {"X-Ticketsmith-Task": "wf/run/0/fetchTickets"}) as session:
            await session.call_tool("fetch_ticket", {"key": "PAY-2"})
            await session.list_tools()  # not a tool call: not logged
        try:
            async with mcp_session(url) as session:
                await session.call_tool("search_web", {"query": "webhooks", "limit": 2})
        except Exception:  # the injected 500 ends the SDK client's session
            pass
        calls = (await http.get("/_calls")).json()
        assert [(c["tool"], c["arguments"], c["task"], c["status_code"]) for c in calls] == [
            ("fetch_ticket", {"key": "PAY-2"}, "wf/run/0/fetchTickets", 200),
            ("search_web", {"query": "webhooks", "limit": 2}, "", 500),
        ]
        assert (await http.delete("/_calls")).status_code == 204
        assert (await http.get("/_calls")).json() == []
