"""The admin rule on its own: loopback names, browsers posing as local callers, the token."""

import pytest
from pydantic import SecretStr
from starlette.types import Scope

from access.admin import AdminAccess, admin_headers, local_caller, loopback_host
from config import Settings


def scope(client: str, headers: dict[str, str] | None = None, path: str = "/_faults") -> Scope:
    """An HTTP request's ASGI scope from `client` with these headers."""
    raw = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    return {"type": "http", "method": "GET", "path": path, "client": (client, 5000), "headers": raw}


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.1:8100", True),
        ("127.8.9.1", True),
        ("localhost:8081", True),
        ("app.localhost", True),
        ("[::1]:8100", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("192.0.2.2", False),
        ("0.0.0.0", False),
        ("evil.example:8100", False),
        ("localhost.evil.example", False),
        ("", False),
    ],
)
def test_loopback_names(host: str, loopback: bool) -> None:
    assert loopback_host(host) is loopback


def test_a_program_on_this_machine_is_local_and_a_caller_elsewhere_is_not() -> None:
    assert local_caller(scope("127.0.0.1", {"host": "127.0.0.1:8100"}))
    assert local_caller(scope("127.0.0.1", {"host": "emulator.test"}))  # not a browser
    assert not local_caller(scope("192.0.2.9", {"host": "127.0.0.1:8100"}))
    assert not local_caller({"type": "http", "headers": []})  # no client address known


def test_a_web_page_is_local_only_when_its_host_and_origin_are() -> None:
    ui = {"host": "127.0.0.1:8081", "origin": "http://127.0.0.1:8233"}
    assert local_caller(scope("127.0.0.1", ui))
    typed = {"host": "localhost:8100", "sec-fetch-site": "none"}  # a URL typed in the browser
    assert local_caller(scope("127.0.0.1", typed))
    other_site = {"host": "127.0.0.1:8100", "origin": "https://evil.example"}
    assert not local_caller(scope("127.0.0.1", other_site))
    # A name rebound to 127.0.0.1: the page's own origin, so only the Host header tells.
    rebound = {"host": "evil.example:8100", "sec-fetch-site": "same-origin"}
    assert not local_caller(scope("127.0.0.1", rebound))
    assert not local_caller(scope("127.0.0.1", {"host": "127.0.0.1", "origin": "null"}))


def test_the_token_opens_the_routes_to_callers_elsewhere_and_a_wrong_one_to_nobody() -> None:
    access = AdminAccess(token="t0ken")
    elsewhere = scope("192.0.2.9")
    assert access.refusal(scope("192.0.2.9", {"authorization": "Bearer t0ken"})) is None
    assert "TICKETSMITH_ADMIN_TOKEN" in (access.refusal(elsewhere) or "")
    wrong = access.refusal(scope("127.0.0.1", {"authorization": "Bearer guess"}))
    assert wrong is not None and "not TICKETSMITH_ADMIN_TOKEN" in wrong
    assert access.refusal(scope("127.0.0.1")) is None


def test_without_a_token_callers_elsewhere_are_told_what_to_set() -> None:
    refused = AdminAccess().refusal(scope("192.0.2.9", path="/_calls"))
    assert refused is not None
    assert refused.startswith("/_calls answers only callers on this machine")
    assert "TICKETSMITH_ADMIN_TOKEN" in refused
    assert "TICKETSMITH_ADMIN_ALLOW_UNAUTHENTICATED=true" in refused
    assert AdminAccess(allow_anyone=True).refusal(scope("192.0.2.9")) is None


def test_settings_and_start_notices() -> None:
    assert AdminAccess.from_settings(Settings()) == AdminAccess()
    assert AdminAccess.from_settings(Settings(admin_token=SecretStr("  "))).token is None
    given = Settings(admin_token=SecretStr("abc"), admin_allow_unauthenticated=True)
    assert AdminAccess.from_settings(given) == AdminAccess("abc", True)
    assert admin_headers(given) == {"Authorization": "Bearer abc"}
    assert admin_headers(Settings()) == {}
    assert "abc" not in repr(AdminAccess.from_settings(given))
    assert AdminAccess().start_notice("127.0.0.1") is None
    assert AdminAccess("abc").start_notice("0.0.0.0") is None
    beyond = AdminAccess().start_notice("0.0.0.0")
    assert beyond is not None and "until TICKETSMITH_ADMIN_TOKEN is set" in beyond
    anyone = AdminAccess(allow_anyone=True).start_notice("127.0.0.1")
    assert anyone is not None and "answer anyone" in anyone
