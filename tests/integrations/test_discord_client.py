"""DiscordClient against the in-process webhook emulator."""

from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from temporalio.exceptions import ApplicationError

from integrations.discord import DiscordClient
from tests.emulators.helpers import BASE_URL, new_emulator

WEBHOOK = f"{BASE_URL}/api/webhooks/1000/demo-token"


async def test_send_and_trim(tmp_path: Path) -> None:
    app = new_emulator(tmp_path)
    async with DiscordClient(transport=httpx.ASGITransport(app=app)) as discord:
        await discord.send(WEBHOOK, "DEMO-1: pull request opened")
        await discord.send(WEBHOOK, "x" * 2500, embeds=[{"title": "DEMO-1"}])
    short, long = app.state.emulator.data["discord"]["messages"]
    assert short["content"] == "DEMO-1: pull request opened"
    assert len(long["content"]) == 2000
    assert long["content"].endswith("…")
    assert long["embeds"] == [{"title": "DEMO-1"}]


async def test_empty_message_is_bad_request(tmp_path: Path) -> None:
    transport = httpx.ASGITransport(app=new_emulator(tmp_path))
    async with DiscordClient(transport=transport) as discord:
        with pytest.raises(ApplicationError) as caught:
            await discord.send(WEBHOOK, "   ")
    assert (caught.value.type, caught.value.non_retryable) == ("DiscordBadRequest", True)
    assert "Cannot send an empty message" in caught.value.message
    assert "/api/webhooks/1000/***" in caught.value.message
    assert "demo-token" not in str(caught.value.details)


async def test_rate_limit_uses_retry_after_from_the_body() -> None:
    def limited(request: httpx.Request) -> httpx.Response:
        body = {"message": "You are being rate limited.", "retry_after": 0.25, "global": False}
        return httpx.Response(429, json=body)

    async with DiscordClient(transport=httpx.MockTransport(limited)) as discord:
        with pytest.raises(ApplicationError) as caught:
            await discord.send(WEBHOOK, "hi")
    assert caught.value.type == "DiscordRateLimited"
    assert not caught.value.non_retryable
    assert caught.value.next_retry_delay == timedelta(seconds=0.25)
