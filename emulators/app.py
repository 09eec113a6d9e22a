"""One FastAPI app serving local Jira, GitHub (with git hosting) and Discord, with a request log."""

import asyncio
import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from emulators.discord_routes import create_discord_router
from emulators.git_hosting import create_git_router, ensure_seed_repository
from emulators.github_routes import DOCS, create_github_router
from emulators.jira_routes import create_jira_router
from emulators.state import EmulatorError, EmulatorState, Fault, FaultInjector, RequestLog

DEFAULT_SEED = Path(__file__).resolve().parent / "seed.json"


def create_app(state_dir: Path, seed_file: Path | None = None, reset: bool = False) -> FastAPI:
    """The emulators over `state_dir`; `reset` wipes it (state and git repositories) first."""
    seed_file = seed_file or DEFAULT_SEED
    if reset:
        shutil.rmtree(state_dir, ignore_errors=True)
    state = EmulatorState.open(state_dir, seed_file)
    repos_root = state_dir / "git"
    for repo in state.data["repositories"]:
        if repo.get("source"):
            source = seed_file.parent / repo["source"]
            ensure_seed_repository(repos_root, repo["owner"], repo["name"], source)
    log, faults = RequestLog(), FaultInjector()

    app = FastAPI(title="ticketsmith emulators")
    app.state.emulator = state
    app.add_exception_handler(EmulatorError, _emulator_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.include_router(_control_router(state, log, faults))
    app.include_router(create_jira_router(state))
    app.include_router(create_github_router(state, repos_root))
    app.include_router(create_discord_router(state))
    app.include_router(create_git_router(repos_root))
    app.add_middleware(RecordingMiddleware, log=log, faults=faults)
    return app


def _control_router(state: EmulatorState, log: RequestLog, faults: FaultInjector) -> APIRouter:
    """Routes for tests and the demo: health, request log, state and fault injection."""
    router = APIRouter(prefix="/_emulator", tags=["emulator"])

    @router.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @router.get("/requests")
    def list_requests() -> list[dict[str, Any]]:
        return log.entries

    @router.delete("/requests", status_code=204)
    def clear_requests() -> None:
        log.clear()

    @router.get("/state")
    def get_state() -> dict[str, Any]:
        return state.data

    @router.get("/faults")
    def list_faults() -> list[Fault]:
        return faults.faults

    @router.post("/faults", status_code=201)
    def add_fault(fault: Fault) -> Fault:
        faults.faults.append(fault)
        return fault

    @router.delete("/faults", status_code=204)
    def clear_faults() -> None:
        faults.faults.clear()

    return router


class RecordingMiddleware:
    """Logs every request outside /_emulator and applies injected faults before routing."""

    def __init__(self, app: ASGIApp, log: RequestLog, faults: FaultInjector) -> None:
        self.app = app
        self.log = log
        self.faults = faults

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/_emulator/"):
            await self.app(scope, receive, send)
            return
        method, path = scope["method"], scope["path"]
        query = dict(parse_qsl(scope["query_string"].decode()))
        body, receive = await _buffer_json_body(scope, receive)
        status_code = 500

        async def recording_send(message: Message) -> None:
            nonlocal status_code
            if message["type"] == "http.response.start":
                status_code = message["status"]
            await send(message)

        try:
            fault = self.faults.take(method, path)
            if fault and fault.delay_seconds:
                await asyncio.sleep(fault.delay_seconds)
            if fault and fault.status_code:
                content = fault.body or {"message": "Injected fault"}
                response = JSONResponse(content, fault.status_code, headers=fault.headers)
                await response(scope, receive, recording_send)
            else:
                await self.app(scope, receive, recording_send)
        finally:
            self.log.record(method, path, query, status_code, body)


async def _buffer_json_body(scope: Scope, receive: Receive) -> tuple[Any, Receive]:
    """Read a JSON body ahead (for the log) and hand the app a receive that replays it."""
    headers = dict(scope["headers"])
    if scope["method"] not in ("POST", "PUT", "PATCH") or b"json" not in headers.get(
        b"content-type", b""
    ):
        return None, receive
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if message["type"] != "http.request" or not message.get("more_body"):
            break
    raw = b"".join(chunks)
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if replayed:
            return await receive()
        replayed = True
        return {"type": "http.request", "body": raw, "more_body": False}

    try:
        return json.loads(raw), replay
    except ValueError:
        return raw.decode(errors="replace"), replay


def _service_error(
    path: str, status_code: int, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """An error in the body shape of the service the path belongs to."""
    if path.startswith("/api/v3/"):
        body: dict[str, Any] = {"message": message, "documentation_url": DOCS}
    elif path.startswith("/api/webhooks/"):
        body = {"message": message, "code": 50035 if status_code == 400 else 0}
    elif path.startswith("/rest/api/"):
        body = {"errorMessages": [message], "errors": {}}
    else:
        body = {"detail": message}
    return JSONResponse(body, status_code, headers=headers)


async def _emulator_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, EmulatorError)
    return JSONResponse(exc.body, exc.status_code)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return _service_error(request.url.path, 400, "Problems parsing JSON")
    message = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in errors)
    status_code = 422 if request.url.path.startswith("/api/v3/") else 400
    return _service_error(request.url.path, status_code, message)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    return _service_error(request.url.path, exc.status_code, str(exc.detail), exc.headers)
