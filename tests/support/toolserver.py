"""The tool server for tests: uvicorn in this process, Jira from an in-process emulator."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from starlette.types import ASGIApp

from emulators.app import create_app as create_emulators
from harness.processes import free_port, until
from toolserver.app import JiraAccess, create_app
from toolserver.documents import seed_documents
from toolserver.faults import FaultProfile
from toolserver.search import LocalIndex


@asynccontextmanager
async def serving(app: ASGIApp, port: int) -> AsyncIterator[str]:
    """Serve an ASGI app (its lifespan included) on a port; yields its base URL."""
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    task = asyncio.create_task(server.serve())

    async def started() -> bool:
        if task.done():
            task.result()  # raises what stopped it
        return server.started

    try:
        await until(started, 30, "the test server to start", interval_s=0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)


@asynccontextmanager
async def tool_server(
    data: Path, profile: FaultProfile | None = None
) -> AsyncIterator[tuple[str, Any]]:
    """The tool server over a freshly seeded emulator and corpus; yields (base URL, app)."""
    emulators = create_emulators(data / "emulators", reset=True)
    jira = JiraAccess(
        "http://jira.test", "ticketsmith@example.com", "t", transport=httpx.ASGITransport(emulators)
    )
    seed_documents(data / "docs")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    app = create_app(jira, data / "docs", LocalIndex.from_file(), profile or FaultProfile(), url)
    async with serving(app, port):
        yield url, app


@asynccontextmanager
async def mcp_session(
    base_url: str, headers: dict[str, str] | None = None
) -> AsyncIterator[ClientSession]:
    """An initialised MCP session with the SDK's own client (sending `headers`, if any)."""
    async with (
        httpx.AsyncClient(headers=headers, timeout=httpx.Timeout(30, read=300)) as http,
        streamable_http_client(f"{base_url}/mcp", http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session
