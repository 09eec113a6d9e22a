"""The admin rule: routes that change state or read payloads answer callers on this machine,
callers with the admin token, or anyone only when a setting says so explicitly."""

import hmac
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from config.admin import AdminSettings

TOKEN_SETTING = "TICKETSMITH_ADMIN_TOKEN"
OPEN_SETTING = "TICKETSMITH_ADMIN_ALLOW_UNAUTHENTICATED"
# (method, path) -> whether the admin rule applies to the request
Guarded = Callable[[str, str], bool]


def loopback_host(host: str) -> bool:
    """Whether a host name or address (a Host header's, port and brackets allowed) is loopback."""
    host = host.strip().lower()
    if host.startswith("["):
        host = host[1 : host.find("]")] if "]" in host else host[1:]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or bool(mapped and mapped.is_loopback)


def local_caller(scope: Scope) -> bool:
    """A caller on this machine, and not a web page posing as one.

    A browser's request (it carries Origin or Sec-Fetch-Site) counts only when its Host and
    Origin name loopback too: a page elsewhere, or one whose name was rebound to 127.0.0.1,
    gets no more than any other remote caller.
    """
    client = scope.get("client")
    if not client or not loopback_host(str(client[0])):
        return False
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    origin = headers.get("origin")
    if origin is None and "sec-fetch-site" not in headers:
        return True
    if not loopback_host(headers.get("host", "")):
        return False
    return origin is None or loopback_host(origin.partition("://")[2].split("/")[0])


@dataclass(frozen=True)
class AdminAccess:
    """The admin token (None: none is set) and whether anyone may call without it."""

    token: str | None = field(default=None, repr=False)
    allow_anyone: bool = False

    @classmethod
    def from_settings(cls, settings: AdminSettings) -> "AdminAccess":
        """The rule the settings ask for (`admin_token`, `admin_allow_unauthenticated`)."""
        token = settings.admin_token.get_secret_value().strip() if settings.admin_token else ""
        return cls(token or None, settings.admin_allow_unauthenticated)

    def refusal(self, scope: Scope) -> str | None:
        """Why the request may not reach an admin route; None when it may."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        sent = headers.get("authorization", "")
        if self.token is not None and sent.lower().startswith("bearer "):
            if hmac.compare_digest(sent[7:].strip().encode(), self.token.encode()):
                return None
            return f"the bearer token is not {TOKEN_SETTING}: send the token the server has"
        if self.allow_anyone or local_caller(scope):
            return None
        path = scope.get("path", "")
        if self.token is not None:
            return f"{path} needs `Authorization: Bearer <{TOKEN_SETTING}>` from callers elsewhere"
        return (
            f"{path} answers only callers on this machine: set {TOKEN_SETTING} on the server "
            "and send it as `Authorization: Bearer <token>` (or, on a trusted network only, "
            f"{OPEN_SETTING}=true)"
        )

    def start_notice(self, host: str) -> str | None:
        """What a server bound to `host` should log about its admin routes at start."""
        if self.allow_anyone:
            return f"admin routes answer anyone without a token ({OPEN_SETTING}=true)"
        if self.token is None and not loopback_host(host):
            return (
                f"bound to {host}: admin routes answer only callers on this machine until "
                f"{TOKEN_SETTING} is set"
            )
        return None


class AdminGuard:
    """Answers 401 to a request for a guarded route that the admin rule refuses."""

    def __init__(self, app: ASGIApp, access: AdminAccess, guarded: Guarded) -> None:
        self.app = app
        self.access = access
        self.guarded = guarded

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.guarded(scope["method"], scope["path"]):
            refused = self.access.refusal(scope)
            if refused is not None:
                headers = {"WWW-Authenticate": 'Bearer realm="ticketsmith admin"'}
                response = JSONResponse({"detail": refused}, 401, headers=headers)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def admin_headers(settings: AdminSettings) -> dict[str, str]:
    """What a client of the admin routes sends: the admin token, when one is set."""
    token = AdminAccess.from_settings(settings).token
    return {"Authorization": f"Bearer {token}"} if token else {}
