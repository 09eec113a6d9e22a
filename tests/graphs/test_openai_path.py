"""ask_structured through ChatOpenAI's JSON-schema mode, against a stub server in-process."""

import json
from typing import Any

import httpx
import pytest
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, SecretStr

from llm.metering import metering
from llm.structured import ModelAnswerError, ask_structured


class Verdict(BaseModel):
    """A small answer schema for the tests."""

    ok: bool


def completion(content: str) -> dict[str, Any]:
    """A Chat Completions response carrying one answer."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "stub",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 30, "completion_tokens": 7, "total_tokens": 37},
    }


def stub_model(handler: Any) -> ChatOpenAI:
    """ChatOpenAI wired to an in-process handler instead of the network."""
    return ChatOpenAI(
        model="stub",
        api_key=SecretStr("sk-test"),
        base_url="http://stub.local/v1",
        max_retries=0,
        http_async_client=httpx.AsyncClient(transport=httpx.MockTransport(handler)),
    )


async def test_json_schema_mode_is_used_and_usage_is_counted() -> None:
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json=completion('{"ok": true}'))

    verdict, tokens = await ask_structured(stub_model(handler), "task: test", "Fine?", Verdict)
    assert verdict.ok and tokens == 37
    assert bodies[0]["response_format"]["type"] == "json_schema"


async def test_a_server_without_json_schema_mode_falls_back_to_text() -> None:
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        bodies.append(body)
        if "response_format" in body:
            return httpx.Response(400, json={"error": {"message": "response_format unsupported"}})
        return httpx.Response(200, json=completion('Sure: ```json\n{"ok": false}\n```'))

    verdict, tokens = await ask_structured(stub_model(handler), "task: test", "Fine?", Verdict)
    assert verdict == Verdict(ok=False) and tokens == 37
    assert ["response_format" in b for b in bodies] == [True, False]


async def test_an_answer_outside_the_schema_is_asked_again_in_text_then_refused() -> None:
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json=completion("no answer for this task"))

    model = stub_model(handler)
    with pytest.raises(ModelAnswerError) as refused:
        await ask_structured(model, "task: test", "Fine?", Verdict, retries=1)
    assert ["response_format" in b for b in bodies] == [True, False, False]
    assert "Verdict: no usable answer after 2 attempts" in str(refused.value)
    assert refused.value.tokens == 37 * 2


async def test_an_answer_cut_at_its_length_limit_is_asked_again_shorter() -> None:
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        if len(bodies) == 1:  # a small model looping until its limit
            looping = completion('{"ok": ' + "true, true, " * 200)
            looping["choices"][0]["finish_reason"] = "length"
            looping["usage"] = {"prompt_tokens": 30, "completion_tokens": 900, "total_tokens": 930}
            return httpx.Response(200, json=looping)
        return httpx.Response(200, json=completion('{"ok": true}'))

    verdict, tokens = await ask_structured(stub_model(handler), "task: test", "Fine?", Verdict)
    assert verdict.ok and tokens == 930 + 37  # the cut call's tokens are counted too
    assert len(bodies) == 2
    retry = bodies[1]["messages"][-1]["content"]
    assert "ran on past its length limit" in retry
    assert len(bodies[1]["messages"][-2]["content"]) <= 400  # the loop is not sent back whole


async def test_the_meter_counts_every_attempt_in_and_out_as_the_server_did() -> None:
    calls = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        if calls == 1:  # cut at its limit: counted, then asked again
            cut = completion('{"ok": ' + "true, " * 100)
            cut["choices"][0]["finish_reason"] = "length"
            cut["usage"] = {"prompt_tokens": 30, "completion_tokens": 900, "total_tokens": 930}
            return httpx.Response(200, json=cut)
        if "response_format" in json.loads(request.content):
            return httpx.Response(400, json={"error": {"message": "response_format unsupported"}})
        if calls == 3:  # no JSON at all: counted, then asked again
            return httpx.Response(200, json=completion("I think so."))
        return httpx.Response(200, json=completion('{"ok": true}'))

    with metering() as meter:
        _, tokens = await ask_structured(stub_model(handler), "task: test", "Fine?", Verdict)
    assert (meter.input_tokens, meter.output_tokens) == (30 * 3, 900 + 7 * 2)
    assert meter.tokens == tokens == 930 + 37 * 2
