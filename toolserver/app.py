"""The tool server's ASGI app: MCP over streamable HTTP at /mcp, plus health, metrics, faults
and the call log (these two only for callers on this machine or with the admin token)."""

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from access.admin import AdminAccess, AdminGuard
from integrations.jira.client import JiraClient
from toolserver.call_log import CallLog
from toolserver.documents import DocumentNotFoundError, DocumentStore
from toolserver.faults import FaultProfile, ToolFaults, first_problem
from toolserver.metrics import CONTENT_TYPE_LATEST, ToolMetrics
from toolserver.middleware import ToolCallMiddleware
from toolserver.search import SearchProvider
from toolserver.tools import register_tools

MCP_PATH = "/mcp"
ADMIN_PATHS = ("/_faults", "/_calls")  # they change what calls meet, and show their arguments


class SessionCloseNoise(logging.Filter):
    """Drops the SDK's error log of a stream closed by a client ending its session normally."""

    def filter(self, record: logging.LogRecord) -> bool:
        closed = record.exc_info and type(record.exc_info[1]).__name__ == "ClosedResourceError"
        return not (closed and "standalone SSE writer" in record.getMessage())


logging.getLogger("mcp.server.streamable_http").addFilter(SessionCloseNoise())
# One line per request of the SDK's own at INFO; the tool server logs each call itself.
logging.getLogger("mcp.server.lowlevel.server").setLevel(logging.WARNING)


@dataclass
class JiraAccess:
    """How the tool server reaches Jira (the emulator by default)."""

    base_url: str
    email: str
    token: str
    api_version: int = 3
    transport: httpx.AsyncBaseTransport | None = field(default=None, repr=False)

    def client(self) -> JiraClient:
        """A Jira client for these settings."""
        return JiraClient(self.base_url, self.email, self.token, self.api_version, self.transport)


def create_app(
    jira: JiraAccess,
    docs_dir: Path,
    search: SearchProvider,
    profile: FaultProfile,
    public_url: str,
    admin: AdminAccess | None = None,
) -> Starlette:
    """The tool server; `public_url` is where callers reach it (document URLs start there),
    `admin` who may use its faults and call log (default: callers on this machine)."""
    metrics = ToolMetrics()
    calls = CallLog()
    faults = ToolFaults(profile)
    documents = DocumentStore(docs_dir, public_url)
    jira_client = jira.client()
    # Sessions are on (stateful streamable HTTP); DNS-rebinding checks are the deployment's
    # business (the embedded stack binds to 127.0.0.1, Compose to its own network).
    mcp = FastMCP(
        "ticketsmith-tools",
        instructions="Jira tickets, documents and PDFs, and web search for research agents.",
        streamable_http_path=MCP_PATH,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    register_tools(mcp, jira_client, jira.base_url, documents, search, metrics)
    mcp_routes = mcp.streamable_http_app().routes

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with mcp.session_manager.run():
            try:
                yield
            finally:
                await jira_client.aclose()

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def prometheus(request: Request) -> Response:
        return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    async def get_faults(request: Request) -> Response:
        return JSONResponse(faults.current().model_dump())

    async def put_faults(request: Request) -> Response:
        try:
            profile = FaultProfile.model_validate_json(await request.body())
        except ValidationError as err:
            return JSONResponse({"detail": f"not a fault profile: {first_problem(err)}"}, 422)
        faults.replace(profile)
        return JSONResponse(profile.model_dump())

    async def clear_faults(request: Request) -> Response:
        faults.replace(FaultProfile())
        return Response(status_code=204)

    async def list_calls(request: Request) -> Response:
        return JSONResponse(calls.entries())

    async def clear_calls(request: Request) -> Response:
        calls.clear()
        return Response(status_code=204)

    async def serve_doc(request: Request) -> Response:
        try:
            return FileResponse(documents.path(request.path_params["doc_id"]))
        except DocumentNotFoundError as err:
            return JSONResponse({"detail": str(err)}, 404)

    routes = [
        Route("/healthz", health),
        Route("/metrics", prometheus),
        Route("/_faults", get_faults, methods=["GET"]),
        Route("/_faults", put_faults, methods=["PUT"]),
        Route("/_faults", clear_faults, methods=["DELETE"]),
        Route("/_calls", list_calls, methods=["GET"]),
        Route("/_calls", clear_calls, methods=["DELETE"]),
        Route("/docs/{doc_id}", serve_doc),
        *mcp_routes,
    ]
    middleware = [
        Middleware(AdminGuard, access=admin or AdminAccess(), guarded=admin_route),
        Middleware(ToolCallMiddleware, faults=faults, metrics=metrics, calls=calls),
    ]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.faults = faults
    app.state.metrics = metrics
    app.state.calls = calls
    return app


def admin_route(method: str, path: str) -> bool:
    """The faults and the call log: the routes the admin rule guards."""
    return path.rstrip("/") in ADMIN_PATHS
