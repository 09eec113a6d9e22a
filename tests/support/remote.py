"""An app served on every address of this machine, so a test calls it both as a caller on
loopback and as one on another address (which the admin rule and the codec refuse)."""

import ipaddress
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx
from starlette.types import ASGIApp

from harness.serving import served

# Where a caller elsewhere comes from when this machine has no address but loopback.
ELSEWHERE = "192.0.2.77"


def outward_address() -> str | None:
    """This machine's address towards its network, or None when it only has loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a UDP "connect" sends nothing: it picks a route
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if ipaddress.ip_address(address).is_loopback else address


@dataclass
class Served:
    """The app's URL on loopback, and how to reach it from another address."""

    app: ASGIApp
    port: int
    outward: str | None

    @property
    def local_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def local(self, headers: dict[str, str] | None = None) -> httpx.AsyncClient:
        """A client on this machine's loopback."""
        return httpx.AsyncClient(base_url=self.local_url, headers=headers, timeout=30)

    def remote(self, headers: dict[str, str] | None = None) -> httpx.AsyncClient:
        """A client whose address is not loopback: over the network when the machine has one,
        else in-process with another address."""
        if self.outward is not None:
            url = f"http://{self.outward}:{self.port}"
            return httpx.AsyncClient(base_url=url, headers=headers, timeout=30)
        transport = httpx.ASGITransport(app=self.app, client=(ELSEWHERE, 40000))
        return httpx.AsyncClient(
            transport=transport, base_url=f"http://{ELSEWHERE}", headers=headers, timeout=30
        )


@contextmanager
def served_everywhere(app: ASGIApp, ready_timeout_s: float = 30) -> Iterator[Served]:
    """Serve the app on 0.0.0.0 (uvicorn in a thread, lifespan included) until the block ends."""
    with served(app, "0.0.0.0", ready_timeout_s, lifespan="on") as port:
        yield Served(app, port, outward_address())
