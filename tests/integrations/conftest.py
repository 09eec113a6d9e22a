"""Client tests run against the emulator twice: in-process (ASGI) and over real HTTP.

git tests get a seeded bare repository, served over real smart HTTP.
"""

from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI, Request, Response

from emulators.git_hosting import SEED_REPOS_DIR, create_git_router, ensure_seed_repository
from harness.serving import serve
from tests.emulators.helpers import BASE_URL, emulator_client, new_emulator


@dataclass
class Emulator:
    """The emulator app and how a client reaches it."""

    app: FastAPI
    base_url: str
    transport: httpx.AsyncBaseTransport | None

    async def requests(self) -> list[dict]:
        """The emulator's request log."""
        async with emulator_client(self.app) as http:
            return (await http.get("/_emulator/requests")).json()

    async def inject(self, **fault: object) -> None:
        """Add a fault through the admin endpoint."""
        async with emulator_client(self.app) as http:
            (await http.post("/_emulator/faults", json=fault)).raise_for_status()


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return new_emulator(tmp_path)


@pytest.fixture(params=["in-process", "http"])
def emulator(request: pytest.FixtureRequest, app: FastAPI) -> Iterator[Emulator]:
    """The emulator over ASGI, or served by uvicorn on a free port."""
    if request.param == "in-process":
        yield Emulator(app, BASE_URL, httpx.ASGITransport(app=app))
        return
    with serve(app) as url:
        yield Emulator(app, url, None)


@pytest.fixture
def repos_root(tmp_path: Path) -> Path:
    root = tmp_path / "repos"
    ensure_seed_repository(root, "demo", "calc", SEED_REPOS_DIR / "calc")
    return root


@pytest.fixture
def server(repos_root: Path) -> Iterator[tuple[str, list[str]]]:
    """The git router over HTTP, and the Authorization headers it received."""
    seen: list[str] = []
    app = FastAPI()

    @app.middleware("http")
    async def record(request: Request, call_next: Callable[..., Awaitable[Response]]) -> Response:
        seen.append(request.headers.get("authorization", ""))
        return await call_next(request)

    app.include_router(create_git_router(repos_root))
    with serve(app) as url:
        yield url, seen
