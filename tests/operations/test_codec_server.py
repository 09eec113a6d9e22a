"""The codec server the Web UI calls: encode and decode as proto JSON, CORS for the UI only."""

import base64
from collections.abc import AsyncIterator

import httpx
import pytest
from pydantic import SecretStr

from config import Settings
from encryption.codec import new_key
from encryption.server import cors_origins, create_app
from tests.support.remote import served_everywhere

UI = "http://127.0.0.1:8233"
JSON_PLAIN = base64.b64encode(b"json/plain").decode()


def settings(**overrides: object) -> Settings:
    """Settings with a key ring and the default Web UI."""
    values = {"encryption_keys": SecretStr(new_key("k1")), "temporal_ui_port": 8233}
    return Settings(**{**values, **overrides})  # type: ignore[arg-type]


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    """The app in-process."""
    transport = httpx.ASGITransport(app=create_app(settings()))
    async with httpx.AsyncClient(transport=transport, base_url="http://codec") as client:
        yield client


def body(text: str) -> dict[str, object]:
    """A Payloads message in proto JSON, as the Web UI sends it."""
    data = base64.b64encode(f'"{text}"'.encode()).decode()
    return {"payloads": [{"metadata": {"encoding": JSON_PLAIN}, "data": data}]}


async def test_encode_then_decode(http: httpx.AsyncClient) -> None:
    headers = {"X-Namespace": "default"}
    encoded = await http.post("/encode", json=body("plan v1"), headers=headers)
    assert encoded.status_code == 200
    [payload] = encoded.json()["payloads"]
    assert base64.b64decode(payload["metadata"]["encoding"]) == b"binary/encrypted"
    decoded = await http.post("/decode", json=encoded.json(), headers=headers)
    assert decoded.json() == body("plan v1")


async def test_cors_preflight_allows_the_web_ui_only(http: httpx.AsyncClient) -> None:
    def preflight(origin: str) -> dict[str, str]:
        return {
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,x-namespace",
        }

    allowed = await http.options("/decode", headers=preflight(UI))
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == UI
    assert "x-namespace" in allowed.headers["access-control-allow-headers"]
    refused = await http.options("/decode", headers=preflight("http://evil.example"))
    assert "access-control-allow-origin" not in refused.headers


async def test_bad_requests_are_explained(http: httpx.AsyncClient) -> None:
    garbage = await http.post("/decode", content=b"not json")
    assert garbage.status_code == 400 and "proto JSON" in garbage.json()["detail"]
    other = await http.post("/decode", json=body("x"), headers={"X-Namespace": "elsewhere"})
    assert other.status_code == 404
    foreign = create_app(settings(encryption_keys=SecretStr(new_key("k2"))))
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=foreign), base_url="http://codec"
    ) as client:
        encoded = (await client.post("/encode", json=body("x"))).json()
    unknown = await http.post("/decode", json=encoded)
    assert unknown.status_code == 422 and "k2" in unknown.json()["detail"]


def test_origins_default_to_the_web_ui_and_can_be_listed() -> None:
    assert cors_origins(settings()) == [UI, "http://localhost:8233"]
    listed = settings(codec_cors_origins="https://temporal.example.com/, http://localhost:8080")
    assert cors_origins(listed) == ["https://temporal.example.com", "http://localhost:8080"]


async def test_without_keys_payloads_pass_through() -> None:
    app = create_app(settings(encryption_keys=None))
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://codec"
    ) as client:
        assert (await client.get("/healthz")).json() == {"status": "ok", "key": "none"}
        encoded = await client.post("/encode", json=body("plan v1"))
        decoded = await client.post("/decode", json=body("plan v1"))
    assert encoded.json() == body("plan v1") == decoded.json()


async def test_callers_elsewhere_need_the_admin_token() -> None:
    token = {"Authorization": "Bearer codec-admin-token"}
    guarded = create_app(settings(admin_token=SecretStr("codec-admin-token")))
    with served_everywhere(guarded) as served:
        async with served.remote() as http:
            refused = await http.post("/decode", json=body("x"))
            health = await http.get("/healthz")
        async with served.remote(token) as http:
            allowed = await http.post("/decode", json=body("x"))
        async with served.local() as http:
            local = await http.post("/decode", json=body("x"))
    assert refused.status_code == 401
    assert "TICKETSMITH_ADMIN_TOKEN" in refused.json()["detail"]
    assert (health.status_code, allowed.status_code, local.status_code) == (200, 200, 200)


async def test_without_a_token_only_this_machine_or_the_explicit_setting() -> None:
    with served_everywhere(create_app(settings())) as served:
        async with served.remote() as http:
            refused = await http.post("/encode", json=body("x"))
    with served_everywhere(create_app(settings(admin_allow_unauthenticated=True))) as served:
        async with served.remote() as http:
            anyone = await http.post("/encode", json=body("x"))
    assert refused.status_code == 401
    assert "answers only callers on this machine" in refused.json()["detail"]
    assert anyone.status_code == 200


async def test_a_page_of_another_origin_gets_no_answer() -> None:
    guarded = create_app(settings(admin_token=SecretStr("codec-admin-token")))
    with served_everywhere(guarded) as served:
        async with served.local() as http:
            ui = await http.post("/decode", json=body("x"), headers={"Origin": UI})
            page = await http.post(
                "/decode", json=body("x"), headers={"Origin": "http://evil.example"}
            )
        token = {"Authorization": "Bearer codec-admin-token", "Origin": "http://evil.example"}
        async with served.local(token) as http:
            listed_not = await http.post("/decode", json=body("x"))
    assert ui.status_code == 200
    assert page.status_code == 401  # a web page elsewhere is no caller on this machine
    assert listed_not.status_code == 403
    assert "TICKETSMITH_CODEC_CORS_ORIGINS" in listed_not.json()["detail"]


@pytest.mark.parametrize("origins", ["*", "http://ok.example, *", "localhost:8080"])
def test_a_wildcard_or_a_bare_name_is_no_origin(origins: str) -> None:
    with pytest.raises(ValueError, match="TICKETSMITH_CODEC_CORS_ORIGINS names"):
        create_app(settings(codec_cors_origins=origins))
