"""The model's speed a quality run records: the server's own timings of one fixed call."""

import json
from typing import Any

import httpx
import pytest

from bench.quality import speed
from bench.quality.speed import PROMPT, WRITTEN_TOKENS, measure_speed, wait_until_idle


def server(bodies: list[dict[str, Any]], answer: dict[str, Any]) -> httpx.AsyncClient:
    """A client of an in-process server that records each request and gives `answer`."""

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json=answer)

    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


async def test_the_speed_is_the_servers_timing_of_a_fixed_call() -> None:
    bodies: list[dict[str, Any]] = []
    timings = {"prompt_per_second": 31.93, "predicted_per_second": 7.054}
    speed = await measure_speed("http://local.test/v1", server(bodies, {"timings": timings}))
    assert (speed.reading, speed.writing) == (31.9, 7.1)
    assert bodies[0]["messages"][0]["content"] == PROMPT
    assert bodies[0]["max_tokens"] == WRITTEN_TOKENS and bodies[0]["ignore_eos"] is True
    assert "reads 32 prompt tokens/s and writes 7.1 tokens/s" in speed.line()


async def test_a_server_without_timings_is_named_as_such() -> None:
    with pytest.raises(ValueError, match="no usable `timings`"):
        await measure_speed("http://local.test/v1", server([], {"choices": []}))


def slots_server(busy_polls: int, polls: list[str]) -> httpx.AsyncClient:
    """A client of a server whose one slot processes for the first `busy_polls` polls."""

    def handler(request: httpx.Request) -> httpx.Response:
        polls.append(request.url.path)
        return httpx.Response(200, json=[{"id": 0, "is_processing": len(polls) <= busy_polls}])

    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


async def test_a_ticket_waits_until_the_last_call_has_left_the_server(monkeypatch) -> None:
    monkeypatch.setattr(speed, "IDLE_POLL_S", 0.0)
    polls: list[str] = []
    await wait_until_idle("http://local.test", 60, slots_server(3, polls))
    assert polls == ["/slots"] * 4


async def test_a_server_busy_past_the_deadline_is_named(monkeypatch) -> None:
    monkeypatch.setattr(speed, "IDLE_POLL_S", 0.0)
    with pytest.raises(TimeoutError, match=r"1 slot\(s\) of the model server at http://local.test"):
        await wait_until_idle("http://local.test", 0, slots_server(10, []))
