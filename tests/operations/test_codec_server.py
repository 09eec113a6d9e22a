"""The codec server the Web UI calls: encode and decode as proto JSON, CORS for the UI only."""

import base64
from collections.abc import AsyncIterator

import httpx
import pytest
from pydantic import SecretStr

from config import Settings
from encryption.codec import new_key
from encryption.server import cors_origins, create_app

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
