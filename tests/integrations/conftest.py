"""Client tests run against the emulator twice: in-process (ASGI) and over real HTTP."""

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from tests.emulators.helpers import BASE_URL, emulator_client, new_emulator, serve


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
