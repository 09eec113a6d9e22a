"""DiscordClient against the webhook emulator, in-process and over HTTP: content, embeds, limits."""

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from fastapi import FastAPI
from temporalio.exceptions import ApplicationError

from integrations.discord.client import DiscordClient, Embed, EmbedField, embed_text_length
from tests.emulators.helpers import BASE_URL
from tests.integrations.conftest import Emulator

HOOK = "/api/webhooks/1000/demo-token"


def discord(emulator: Emulator) -> DiscordClient:
    return DiscordClient(transport=emulator.transport)


async def test_send_and_trim(emulator: Emulator, app: FastAPI) -> None:
    async with discord(emulator) as client:
        first = await client.send(emulator.base_url + HOOK, "DEMO-1: pull request opened")
        await client.send(emulator.base_url + HOOK, "x" * 2500, embeds=[{"title": "DEMO-1"}])
    short, long = app.state.emulator.data["discord"]["messages"]
    assert first == short["id"]
    assert short["content"] == "DEMO-1: pull request opened"
    assert len(long["content"]) == 2000
    assert long["content"].endswith("…")
    assert long["embeds"] == [{"title": "DEMO-1"}]


async def test_embeds(emulator: Emulator, app: FastAPI) -> None:
    embed = Embed(
        title="DEMO-1: Add a power operation",
        description="Plan v1 is waiting for approval.",
        url="http://jira.test/browse/DEMO-1",
        color=0x2E7D32,
        fields=[EmbedField(name="Phase", value="planning", inline=True)],
        footer="ticketsmith",
        timestamp=datetime(2025, 1, 6, 9, tzinfo=UTC),
    )
    async with discord(emulator) as client:
        await client.send(emulator.base_url + HOOK, "", embeds=[embed], username="ticketsmith")
    message = app.state.emulator.data["discord"]["messages"][0]
    assert message["author"]["username"] == "ticketsmith"
    assert message["embeds"] == [
        {
            "title": "DEMO-1: Add a power operation",
            "description": "Plan v1 is waiting for approval.",
            "url": "http://jira.test/browse/DEMO-1",
            "color": 0x2E7D32,
            "fields": [{"name": "Phase", "value": "planning", "inline": True}],
            "footer": {"text": "ticketsmith"},
            "timestamp": "2025-01-06T09:00:00+00:00",
        }
    ]


async def test_embed_text_is_cut_to_discords_limits(emulator: Emulator, app: FastAPI) -> None:
    huge = Embed(
        title="t" * 300,
        description="d" * 5000,
        fields=[EmbedField(name=f"f{n}", value="v" * 2000) for n in range(30)],
    )
    async with discord(emulator) as client:
        await client.send(emulator.base_url + HOOK, "huge", embeds=[huge] * 12)
    embeds = app.state.emulator.data["discord"]["messages"][0]["embeds"]
    assert 1 <= len(embeds) <= 10
    first = embeds[0]
    assert len(first["title"]) == 256 and len(first["description"]) == 4096
    assert all(len(f["value"]) <= 1024 for f in first["fields"])
    assert sum(embed_text_length(e) for e in embeds) <= 6000
    many = [Embed(title=f"embed {n}") for n in range(12)]
    async with discord(emulator) as client:
        await client.send(emulator.base_url + HOOK, "many", embeds=many)
    assert len(app.state.emulator.data["discord"]["messages"][1]["embeds"]) == 10


async def test_empty_message_is_bad_request(emulator: Emulator) -> None:
    async with discord(emulator) as client:
        with pytest.raises(ApplicationError) as caught:
            await client.send(emulator.base_url + HOOK, "   ")
    assert (caught.value.type, caught.value.non_retryable) == ("DiscordBadRequest", True)
    assert "Cannot send an empty message" in caught.value.message
    assert "/api/webhooks/1000/***" in caught.value.message
    assert "demo-token" not in str(caught.value.details)


async def test_injected_rate_limit_carries_retry_after(emulator: Emulator, app: FastAPI) -> None:
    await emulator.inject(path=HOOK, status_code=429, retry_after=1.5)
    async with discord(emulator) as client:
        with pytest.raises(ApplicationError) as caught:
            await client.send(emulator.base_url + HOOK, "hi")
        await client.send(emulator.base_url + HOOK, "hi again")
    assert caught.value.type == "DiscordRateLimited"
    assert caught.value.next_retry_delay == timedelta(seconds=1.5)
    assert [m["content"] for m in app.state.emulator.data["discord"]["messages"]] == ["hi again"]


async def test_rate_limit_uses_retry_after_from_the_body() -> None:
    def limited(request: httpx.Request) -> httpx.Response:
        body = {"message": "You are being rate limited.", "retry_after": 0.25, "global": False}
        return httpx.Response(429, json=body)

    async with DiscordClient(transport=httpx.MockTransport(limited)) as client:
        with pytest.raises(ApplicationError) as caught:
            await client.send(BASE_URL + HOOK, "hi")
    assert caught.value.type == "DiscordRateLimited"
    assert not caught.value.non_retryable
    assert caught.value.next_retry_delay == timedelta(seconds=0.25)
