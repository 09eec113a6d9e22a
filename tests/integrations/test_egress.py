"""Set-up's way out: only the package indexes (and hosts a setting adds), everything else
refused and reported by host and port; real sockets, and real set-up in bubblewrap."""

import asyncio
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from integrations.environments.build import Environments
from integrations.environments.egress import EgressPolicy, EgressProxy
from tests.support.sandboxes import working_sandbox

PYPI = {("pypi.org", 443), ("files.pythonhosted.org", 443)}


class Counter(ThreadingHTTPServer):
    """A loopback HTTP service that counts who reached it."""

    hits: int = 0


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        assert isinstance(self.server, Counter)
        self.server.hits += 1
        body = b"reached"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def service() -> Iterator[Counter]:
    server = Counter(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def test_the_indexes_uv_is_given_are_allowed_and_pypi_when_no_default_is_set() -> None:
    env = {
        "UV_INDEX": "internal=https://pkgs.example.com:8443/simple file:///opt/pypi/simple",
        "UV_FIND_LINKS": "/opt/wheels,http://wheels.example.com/links/",
    }
    policy = EgressPolicy.for_sources(env, ["git.example.com", "cache.example.com:3141"])
    assert policy.allowed == PYPI | {
        ("pkgs.example.com", 8443),
        ("wheels.example.com", 80),
        ("git.example.com", 443),
        ("git.example.com", 80),
        ("cache.example.com", 3141),
    }
    assert policy.permits("PyPI.org.", 443) and not policy.permits("pypi.org", 80)


def test_a_private_default_index_replaces_pypi() -> None:
    policy = EgressPolicy.for_sources({"UV_DEFAULT_INDEX": "https://mirror.example.com/simple"})
    assert policy.allowed == {("mirror.example.com", 443)}
    pypi_itself = EgressPolicy.for_sources({"UV_DEFAULT_INDEX": "https://pypi.org/simple/"})
    assert pypi_itself.allowed == PYPI  # PyPI's pages link to its file host


async def exchange(proxy: EgressProxy, request: bytes) -> bytes:
    reader, writer = await asyncio.open_unix_connection(str(proxy.socket_path))
    writer.write(request)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(-1), 10)
    writer.close()
    return answer


async def test_an_allowed_host_is_reached_by_tunnel_and_by_plain_request(service: Counter) -> None:
    port = service.server_address[1]
    policy = EgressPolicy.for_sources({}, [f"127.0.0.1:{port}"])
    async with EgressProxy(policy) as proxy:
        reader, writer = await asyncio.open_unix_connection(str(proxy.socket_path))
        writer.write(f"CONNECT 127.0.0.1:{port} HTTP/1.1\r\n\r\n".encode())
        established = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert established.startswith(b"HTTP/1.1 200")
        writer.write(b"GET /tunnelled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert (await asyncio.wait_for(reader.read(-1), 10)).endswith(b"reached")
        writer.close()
        plain = f"GET http://127.0.0.1:{port}/simple/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        answer = await exchange(proxy, plain.encode())
    assert answer.startswith(b"HTTP/1.0 200") and answer.endswith(b"reached")
    assert service.hits == 2 and proxy.refused == []


async def test_anything_else_is_refused_named_and_never_reached(service: Counter) -> None:
    port = service.server_address[1]
    async with EgressProxy(EgressPolicy.for_sources({})) as proxy:
        tunnel = await exchange(proxy, f"CONNECT 127.0.0.1:{port} HTTP/1.1\r\n\r\n".encode())
        plain = await exchange(proxy, f"GET http://127.0.0.1:{port}/ HTTP/1.1\r\n\r\n".encode())
        metadata = await exchange(proxy, b"GET http://169.254.169.254/latest/ HTTP/1.1\r\n\r\n")
        nonsense = await exchange(proxy, b"hello\r\n\r\n")
    for answer in (tunnel, plain, metadata):
        assert answer.startswith(b"HTTP/1.1 403"), answer
    assert b"is not a package index (allowed: files.pythonhosted.org:443" in tunnel
    assert nonsense.startswith(b"HTTP/1.1 400")
    assert proxy.refused == [f"127.0.0.1:{port}", "169.254.169.254:80"]
    assert service.hits == 0


PROBE = """
import http.client, sys, urllib.request
url = sys.argv[1]
try:  # urllib follows the proxy variables
    print("proxied:", urllib.request.urlopen(url, timeout=10).read().decode())
except Exception as err:
    print("proxied: failed", err)
host, port = url.split("/")[2].split(":")
try:  # http.client goes straight to the address
    direct = http.client.HTTPConnection(host, int(port), timeout=5)
    direct.request("GET", "/direct")
    print("direct:", direct.getresponse().status)
except OSError as err:
    print("direct: failed", err)
"""


async def set_up_probe(tmp_path: Path, url: str, allowed: list[str]) -> tuple[str, list[str]]:
    """A repository whose set-up command tries to reach `url`; its report and what was refused."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "probe.py").write_text(PROBE)
    (checkout / "requirements.txt").write_text("")
    environments = Environments(tmp_path / "environments", working_sandbox(), 120, allowed)
    env = await environments.ensure(checkout, "me/probe", f"python probe.py {url}")
    assert env.error is None, env.error
    return env.report(), env.refused


async def test_set_up_reaches_no_loopback_service_and_its_report_says_what_it_tried(
    tmp_path: Path, service: Counter
) -> None:
    port = service.server_address[1]
    report, refused = await set_up_probe(tmp_path, f"http://127.0.0.1:{port}/token", [])
    assert service.hits == 0
    assert refused == [f"127.0.0.1:{port}"]
    assert report.endswith(f"\nset-up tried to reach 127.0.0.1:{port}: refused")


async def test_a_host_the_settings_allow_is_reached_through_the_proxy_only(
    tmp_path: Path, service: Counter
) -> None:
    port = service.server_address[1]
    report, refused = await set_up_probe(
        tmp_path, f"http://127.0.0.1:{port}/simple", [f"127.0.0.1:{port}"]
    )
    assert service.hits == 1 and refused == []
    assert "set-up tried" not in report
