"""The Discord webhook emulator: 204 or the message, and Discord's validation errors."""

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from tests.emulators.helpers import emulator_client, new_emulator

HOOK = "/api/webhooks/1000/demo-token"


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return new_emulator(tmp_path)


@pytest.fixture
async def http(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with emulator_client(app) as client:
        yield client


async def test_message_is_stored(http: httpx.AsyncClient, app: FastAPI) -> None:
    response = await http.post(HOOK, json={"content": "DEMO-1: pull request opened"})
    assert response.status_code == 204
    assert response.content == b""
    messages = app.state.emulator.data["discord"]["messages"]
    assert [m["content"] for m in messages] == ["DEMO-1: pull request opened"]
    assert messages[0]["webhook_id"] == "1000"


async def test_wait_returns_the_message(http: httpx.AsyncClient) -> None:
    embed = {"title": "DEMO-1", "description": "done"}
    response = await http.post(
        HOOK, params={"wait": "true"}, json={"content": "", "embeds": [embed], "username": "bot"}
    )
    assert response.status_code == 200
    message = response.json()
    assert message["embeds"] == [embed]
    assert message["author"] == message["author"] | {"username": "bot", "bot": True}
    assert message["id"].isdigit()


async def test_empty_and_too_long_messages_are_400(http: httpx.AsyncClient) -> None:
    empty = await http.post(HOOK, json={"content": ""})
    assert empty.status_code == 400
    assert empty.json() == {"message": "Cannot send an empty message", "code": 50006}
    too_long = await http.post(HOOK, json={"content": "x" * 2001})
    assert too_long.status_code == 400
    assert too_long.json()["code"] == 50035
    assert too_long.json()["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"


async def test_webhook_tokens(http: httpx.AsyncClient) -> None:
    wrong = await http.post("/api/webhooks/1000/wrong", json={"content": "hi"})
    assert wrong.status_code == 401
    assert wrong.json() == {"message": "Invalid Webhook Token", "code": 50027}
    other = await http.post("/api/webhooks/42/any-token", json={"content": "hi"})
    assert other.status_code == 204
    not_snowflake = await http.post("/api/webhooks/abc/token", json={"content": "hi"})
    assert not_snowflake.status_code == 400


async def test_embeds_over_discords_limits_are_400(http: httpx.AsyncClient) -> None:
    long_title = await http.post(HOOK, json={"embeds": [{"title": "t" * 257}]})
    assert long_title.status_code == 400
    assert long_title.json()["errors"]["embeds"]["0"]["title"]["_errors"]
    field = {"name": "n", "value": "v" * 1025}
    long_field = await http.post(HOOK, json={"embeds": [{"title": "x", "fields": [field]}]})
    assert long_field.json()["errors"]["embeds"]["0"]["fields"]["0"]["value"]["_errors"]
    too_much = [{"description": "d" * 4000}, {"description": "d" * 2001}]
    over_total = await http.post(HOOK, json={"embeds": too_much})
    assert over_total.status_code == 400
    assert over_total.json()["errors"]["embeds"]["_errors"]
    eleven = await http.post(HOOK, json={"embeds": [{"title": "x"}] * 11})
    assert eleven.status_code == 400
