"""The model's speed a quality run records: the server's own timings of one fixed call."""

import json
from typing import Any

import httpx
import pytest

from bench.quality.speed import PROMPT, WRITTEN_TOKENS, measure_speed


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
