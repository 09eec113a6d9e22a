"""Set-up's one way out: a proxy that lets through the package indexes and nothing else.

Set-up runs in a network namespace of its own, as the tests do. Inside it a bridge
(`egress_bridge.py`, run by the sandbox's Python) listens on the namespace's loopback and hands
every connection to this proxy over a Unix socket mounted into the sandbox. The proxy opens a
connection only to a host and port on its allowlist (CONNECT for https, absolute-form requests
for plain http) and records every other by host and port, so the environment's report can say
what set-up tried to reach.
"""

import asyncio
import contextlib
import shutil
import tempfile
import urllib.request
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from integrations.environments.egress_bridge import pipe

PYPI_HOSTS = ("pypi.org", "files.pythonhosted.org")
# uv's variables that name where packages come from (a space- or comma-separated list each).
INDEX_VARS = ("UV_DEFAULT_INDEX", "UV_INDEX_URL", "UV_INDEX", "UV_EXTRA_INDEX_URL", "UV_FIND_LINKS")
DEFAULT_INDEX_VARS = ("UV_DEFAULT_INDEX", "UV_INDEX_URL")
HEAD_LIMIT = 64 * 1024
HEAD_TIMEOUT_S = 30.0
CONNECT_TIMEOUT_S = 30.0
CHUNK = 64 * 1024


@dataclass(frozen=True)
class EgressPolicy:
    """Which hosts and ports set-up may reach: the configured indexes and what settings add."""

    allowed: frozenset[tuple[str, int]]

    @classmethod
    def for_sources(cls, env: Mapping[str, str], extra: Iterable[str] = ()) -> "EgressPolicy":
        """The hosts of the index URLs in uv's variables (PyPI's when no default index is set),
        and `extra` entries ("host" for ports 443 and 80, or "host:port")."""
        allowed: set[tuple[str, int]] = set()
        for var in INDEX_VARS:
            for value in env.get(var, "").replace(",", " ").split():
                url = value.split("=", 1)[1] if "=" in value.split("://", 1)[0] else value
                allowed.update(_url_endpoint(url))
        if not any(env.get(var, "").strip() for var in DEFAULT_INDEX_VARS):
            allowed.add((PYPI_HOSTS[0], 443))
        if (PYPI_HOSTS[0], 443) in allowed:  # PyPI's pages link to files on its file host
            allowed.update((host, 443) for host in PYPI_HOSTS)
        for entry in extra:
            allowed.update(_entry_endpoints(entry))
        return cls(frozenset(allowed))

    def permits(self, host: str, port: int) -> bool:
        """True when set-up may open a connection to host:port."""
        return (host.lower().rstrip("."), port) in self.allowed

    def describe(self) -> str:
        """The allowlist, sorted, for messages."""
        return ", ".join(f"{host}:{port}" for host, port in sorted(self.allowed)) or "nothing"


@dataclass
class EgressProxy:
    """The proxy on a Unix socket for one set-up; `refused` lists what it turned away."""

    policy: EgressPolicy
    refused: list[str] = field(default_factory=list)
    _folder: Path | None = None
    _server: asyncio.AbstractServer | None = None
    _streams: set[asyncio.StreamWriter] = field(default_factory=set)

    @property
    def socket_path(self) -> Path:
        """Where the proxy listens (mount it into the sandbox)."""
        if self._folder is None:
            raise RuntimeError("the egress proxy is not running")
        return self._folder / "egress.sock"

    async def __aenter__(self) -> "EgressProxy":
        # A short path of its own: a Unix socket's path is limited to 107 bytes.
        self._folder = Path(tempfile.mkdtemp(prefix="ts-egress-"))
        self._folder.chmod(0o755)
        self._server = await asyncio.start_unix_server(
            self._serve, path=str(self.socket_path), limit=HEAD_LIMIT
        )
        self.socket_path.chmod(0o666)  # set-up runs as an unprivileged uid when we are root
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.close()
        for writer in list(self._streams):
            writer.close()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._streams.add(writer)
        try:
            await self._handle(reader, writer)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            pass
        finally:
            self._streams.discard(writer)
            writer.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_S)
        request_line, _, headers = head.decode("latin-1").partition("\r\n")
        parts = request_line.split()
        if len(parts) != 3:
            return await _answer(writer, 400, "not an HTTP proxy request")
        method, target, version = parts
        tunnel = method.upper() == "CONNECT"
        endpoint = _authority(target) if tunnel else _absolute_http(target)
        if endpoint is None:
            return await _answer(writer, 400, f"cannot proxy {method} {target[:200]}")
        host, port = endpoint
        if not self.policy.permits(host, port):
            where = f"{host}:{port}"
            if where not in self.refused:
                self.refused.append(where)
            allowed = self.policy.describe()
            return await _answer(
                writer, 403, f"{where} is not a package index (allowed: {allowed})"
            )
        try:
            upstream_reader, upstream_writer = await _open(host, port, tunnel)
        except (OSError, TimeoutError, ConnectionError) as err:
            return await _answer(writer, 502, f"cannot reach {host}:{port}: {err}")
        self._streams.add(upstream_writer)
        try:
            if tunnel:
                writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            else:
                upstream_writer.write(_forwarded_head(method, target, version, headers))
            await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))
        finally:
            self._streams.discard(upstream_writer)
            upstream_writer.close()


def _url_endpoint(url: str) -> list[tuple[str, int]]:
    """The (host, port) an http(s) URL connects to; nothing for file URLs and paths."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return []
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return []
    return [(parts.hostname.lower(), port)]


def _entry_endpoints(entry: str) -> list[tuple[str, int]]:
    """An allowlist entry: a URL, "host:port", or "host" (its https and http ports)."""
    entry = entry.strip()
    if "://" in entry:
        return _url_endpoint(entry)
    found = _authority(entry)
    if found is not None:
        return [found]
    return [(entry.lower(), 443), (entry.lower(), 80)] if entry else []


def _authority(target: str) -> tuple[str, int] | None:
    """host:port (IPv6 in brackets) as a pair, else None."""
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return None
    return host.strip("[]").lower(), int(port)


def _absolute_http(target: str) -> tuple[str, int] | None:
    """The endpoint of an absolute-form http:// request target, else None."""
    if not target.lower().startswith("http://"):
        return None
    found = _url_endpoint(target)
    return found[0] if found else None


def _forwarded_head(method: str, target: str, version: str, headers: str) -> bytes:
    """A plain-http request as the origin server expects it: one request, then close."""
    parts = urlsplit(target)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    kept = [
        line
        for line in headers.split("\r\n")
        if line and not line.lower().startswith(("proxy-", "connection:", "keep-alive:"))
    ]
    lines = [f"{method} {path} {version}", *kept, "Connection: close", "", ""]
    return "\r\n".join(lines).encode("latin-1")


async def _open(
    host: str, port: int, tunnel: bool
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to host:port, through the worker's own proxy when it has one for that host."""
    upstream = _upstream_proxy(host, "https" if tunnel else "http")
    if upstream is None:
        return await asyncio.wait_for(asyncio.open_connection(host, port), CONNECT_TIMEOUT_S)
    proxy_host, proxy_port = upstream
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(proxy_host, proxy_port), CONNECT_TIMEOUT_S
    )
    if tunnel:  # the worker's proxy opens the tunnel; our client then speaks through it
        writer.write(f"CONNECT {host}:{port} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        reply = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), CONNECT_TIMEOUT_S)
        if b" 200" not in reply.split(b"\r\n", 1)[0]:
            writer.close()
            raise ConnectionError(f"the worker's proxy refused: {reply.splitlines()[0]!r}")
    return reader, writer


def _upstream_proxy(host: str, scheme: str) -> tuple[str, int] | None:
    """The worker's own proxy for a scheme (HTTPS_PROXY, HTTP_PROXY), unless NO_PROXY skips it."""
    proxies = urllib.request.getproxies_environment()
    url = proxies.get(scheme)
    if not url or urllib.request.proxy_bypass_environment(host, proxies):  # type: ignore[attr-defined]
        return None
    found = _url_endpoint(url if "://" in url else f"http://{url}")
    return found[0] if found else None


async def _answer(writer: asyncio.StreamWriter, status: int, text: str) -> None:
    """A short plain-text reply that ends the connection."""
    reason = {400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway"}[status]
    body = f"ticketsmith set-up proxy: {text}\n".encode()
    writer.write(
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body
    )
    with contextlib.suppress(OSError, ConnectionError):
        await writer.drain()


def proxy_free_env(env: Mapping[str, str]) -> dict[str, str]:
    """An environment without the worker's proxy variables (the bridge sets its own)."""
    names = {"http_proxy", "https_proxy", "all_proxy", "no_proxy"}
    return {k: v for k, v in env.items() if k.lower() not in names}
