"""The local provider: ChatOpenAI against the local server, fitted to its context, logged."""

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import openai
import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_openai import ChatOpenAI
from pydantic import BaseModel

from config import get_settings
from graphs.models import make_chat_model
from llm.prompting import inputs_block
from localmodel.chat import CUT_TAIL_CHARS, LocalChatModel, local_chat_model, task_of


def completion(content: str, finish_reason: str = "stop") -> dict[str, Any]:
    """A Chat Completions response the way llama-server sends it."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "local",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {"prompt_tokens": 900, "completion_tokens": 40, "total_tokens": 940},
    }


def event(choices: list[dict[str, Any]], **more: Any) -> bytes:
    """One server-sent event of a streamed Chat Completions answer."""
    chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "local"}
    return f"data: {json.dumps({**chunk, 'choices': choices, **more})}\n\n".encode()


STREAMED_CHARS = 64


async def streamed(answer: dict[str, Any], served: list[str]) -> AsyncIterator[bytes]:
    """A completion sent as llama-server streams it: a line per event (a long one in pieces),
    then the finish and the usage; `served` records every piece sent."""
    choice = answer["choices"][0]
    for line in choice["message"]["content"].splitlines(keepends=True):
        for start in range(0, len(line), STREAMED_CHARS):  # a long line comes in pieces
            piece = line[start : start + STREAMED_CHARS]
            served.append(piece)
            yield event([{"index": 0, "delta": {"content": piece}, "finish_reason": None}])
    yield event([{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}])
    yield event([], usage=answer["usage"])
    yield b"data: [DONE]\n\n"


def stub(
    bodies: list[dict[str, Any]],
    answer: dict[str, Any] | None = None,
    served: list[str] | None = None,
) -> LocalChatModel:
    """The local chat model wired to an in-process server that records request bodies (and
    the lines it streamed)."""

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        bodies.append(body)
        if body.get("stream"):
            events = streamed(answer or completion("done"), [] if served is None else served)
            headers = {"content-type": "text/event-stream"}
            return httpx.Response(200, content=events, headers=headers)
        return httpx.Response(200, json=answer or completion("done"))

    transport = httpx.MockTransport(handler)
    return local_chat_model(
        "http://local.test/v1",
        context=4096,
        http_async_client=httpx.AsyncClient(transport=transport),
    )


def test_the_factory_builds_the_local_model_from_the_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TICKETSMITH_LOCAL_MODEL_PORT", "8999")
    get_settings.cache_clear()
    try:
        model = make_chat_model("local")
    finally:
        get_settings.cache_clear()
    assert isinstance(model, LocalChatModel) and isinstance(model, ChatOpenAI)
    assert model.openai_api_base == "http://127.0.0.1:8999/v1"
    assert model.max_retries == 0 and model.context_tokens == 4096


async def test_every_call_gets_the_room_left_for_its_answer_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bodies: list[dict[str, Any]] = []
    model = stub(bodies)
    prompt = [SystemMessage(content="task: manager\nPlan."), HumanMessage(content="The MVP.")]
    with caplog.at_level(logging.INFO, logger="ticketsmith.model"):
        answer = await model.ainvoke(prompt)
    assert answer.text == "done"
    assert 3000 < bodies[0]["max_completion_tokens"] < 4096
    assert "model call task=manager prompt_tokens=900 completion_tokens=40" in caplog.text
    review = [SystemMessage(content="task: review\nReview."), HumanMessage(content="The diff.")]
    await model.ainvoke(review)
    assert bodies[1]["max_completion_tokens"] == 512  # a verdict and a few fixes, capped


async def test_prompts_and_answers_are_logged_at_debug_only(
    caplog: pytest.LogCaptureFixture,
) -> None:
    model = stub([])
    prompt = [SystemMessage(content="task: plan\nPlan."), HumanMessage(content="The ticket.")]
    with caplog.at_level(logging.INFO, logger="ticketsmith.model"):
        await model.ainvoke(prompt)
    assert "The ticket." not in caplog.text
    with caplog.at_level(logging.DEBUG, logger="ticketsmith.model"):
        await model.ainvoke(prompt)
    assert (
        "prompt of task plan:\n[system]\ntask: plan\nPlan.\n\n[human]\nThe ticket." in caplog.text
    )
    assert "answer of task plan:\ndone" in caplog.text


async def test_a_cut_answer_is_logged_with_its_end(caplog: pytest.LogCaptureFixture) -> None:
    looping = "## Plan\n" + "- step\n  - and its part\n" * 40
    model = stub([], completion(looping, finish_reason="length"))
    prompt = [SystemMessage(content="task: plan\nPlan it."), HumanMessage(content="x")]
    with caplog.at_level(logging.INFO, logger="ticketsmith.model"):
        await model.ainvoke(prompt)
    assert "answer of task plan cut at its limit after 40 tokens" in caplog.text
    assert repr(looping[-CUT_TAIL_CHARS:]) in caplog.text


async def test_a_structured_answer_cut_at_its_limit_is_logged_with_its_end(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Plan(BaseModel):
        summary: str

    cut = '{"summary": "' + "the plan goes on and on, " * 30
    model = stub([], completion(cut, finish_reason="length"))
    prompt = [SystemMessage(content="task: plan\nPlan it."), HumanMessage(content="x")]
    with caplog.at_level(logging.INFO, logger="ticketsmith.model"):
        with pytest.raises(openai.LengthFinishReasonError):
            await model.with_structured_output(Plan, method="json_schema").ainvoke(prompt)
    assert "model call task=plan failed after" in caplog.text
    assert f"it ended {cut[-CUT_TAIL_CHARS:]!r}" in caplog.text


async def test_a_call_that_fails_is_logged_with_its_time_and_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, json={"error": {"message": "slot unavailable"}})

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    model = local_chat_model("http://local.test/v1", http_async_client=client)
    prompt = [SystemMessage(content="task: analysis\nSum up."), HumanMessage(content="x")]
    with caplog.at_level(logging.INFO, logger="ticketsmith.model"):
        with pytest.raises(openai.InternalServerError):
            await model.ainvoke(prompt)
    assert "model call task=analysis failed after" in caplog.text
    assert "slot unavailable" in caplog.text


async def test_a_short_answer_is_capped_so_a_looping_model_stops_early() -> None:
    bodies: list[dict[str, Any]] = []
    model = stub(bodies)
    prompt = [SystemMessage(content="task: analysis\nSummarise."), HumanMessage(content="Repo.")]
    await model.ainvoke(prompt)
    assert bodies[0]["max_completion_tokens"] == 512
    plan = [SystemMessage(content="task: plan\nPlan it."), HumanMessage(content="Ticket.")]
    await model.ainvoke(plan)
    assert bodies[1]["max_completion_tokens"] == 1024


async def test_a_worker_answer_is_bounded_by_the_size_of_the_file_it_rewrites() -> None:
    from graphs.implementation.worker.answer import MIN_ANSWER_TOKENS, bounded

    bodies: list[dict[str, Any]] = []
    model = stub(bodies)
    prompt = [SystemMessage(content="task: implement_file\nWrite it."), HumanMessage(content="x")]
    small = "def f():\n    return 1\n" * 5  # a 10-line file
    await bounded(model, small).ainvoke(prompt)
    large = "value = 1  # a longer line of a large module\n" * 120
    await bounded(model, large).ainvoke(prompt)
    await bounded(model, "").ainvoke(prompt)  # a new file: only the context bounds it
    assert bodies[0]["max_completion_tokens"] == MIN_ANSWER_TOKENS
    assert bodies[1]["max_completion_tokens"] == 2 * len(large) // 4 + 512
    assert bodies[2]["max_completion_tokens"] > bodies[1]["max_completion_tokens"]
    assert model.max_tokens is None  # a bounded copy, the worker's model untouched


async def test_a_prompt_too_long_for_the_context_is_windowed_before_it_is_sent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bodies: list[dict[str, Any]] = []
    model = stub(bodies)
    long = "".join(f"line {n} of a long file\n" for n in range(3000))
    prompt = [SystemMessage(content="task: implement_file\nWrite it."), HumanMessage(content=long)]
    with caplog.at_level(logging.INFO, logger="ticketsmith.model"):
        await model.ainvoke(prompt)
    sent = bodies[0]["messages"][1]["content"]
    assert len(sent) < len(long) and "lines cut to fit" in sent
    assert bodies[0]["max_completion_tokens"] >= model.min_answer_tokens
    assert "windowed by about" in caplog.text


def test_the_task_is_read_from_the_system_prompt() -> None:
    assert task_of([SystemMessage(content="task: questions\nAsk.")]) == "questions"
    assert task_of([HumanMessage(content="hello")]) == "other"
    assert task_of([]) == "other"


def test_the_report_sums_calls_by_task_and_phase() -> None:
    from localmodel.report import render, summarise

    lines = [
        '{"event": "model call task=plan prompt_tokens=1000 completion_tokens=300 seconds=15.0"}',
        "model call task=implement_file prompt_tokens=2000 completion_tokens=500 seconds=25.0",
        "model call task=implement_file prompt_tokens=1500 completion_tokens=400 seconds=20.0",
        "something else",
    ]
    phases = summarise(lines)
    assert phases["implementation"]["implement_file"].calls == 2
    assert phases["planning"]["plan"].completion == 300
    table = render(phases)
    assert table.splitlines()[-1].split()[:4] == ["all", "3", "4500", "1200"]
    assert table.splitlines()[-1].split()[-2:] == ["1500", "0%"]  # prompt per call, cached


def test_the_report_shows_the_share_of_prompt_tokens_the_cache_served() -> None:
    from localmodel.report import summarise

    lines = [
        "model call task=implement_file prompt_tokens=2000 completion_tokens=500 seconds=25.0"
        " tokens_per_s=20.0 estimated_prompt_tokens=1900 cut_tokens=0 cached_tokens=1500",
        "model call task=implement_file prompt_tokens=2000 completion_tokens=500 seconds=9.0"
        " tokens_per_s=55.6 estimated_prompt_tokens=1900 cut_tokens=0 cached_tokens=500",
    ]
    totals = summarise(lines)["implementation"]["implement_file"]
    assert (totals.cached, totals.prompt_per_call, totals.cached_share) == (2000, 2000.0, 0.5)


async def test_the_call_log_names_the_prompt_tokens_the_server_had_cached(
    caplog: pytest.LogCaptureFixture,
) -> None:
    answer = completion("done")
    answer["usage"]["prompt_tokens_details"] = {"cached_tokens": 850}
    model = stub([], answer=answer)
    prompt = [SystemMessage(content="task: plan\nPlan."), HumanMessage(content="The ticket.")]
    with caplog.at_level(logging.INFO, logger="ticketsmith.model"):
        await model.ainvoke(prompt)
    assert "cached_tokens=850" in caplog.text


async def test_a_worker_prompt_reaches_the_server_without_its_inputs_block() -> None:
    bodies: list[dict[str, Any]] = []
    model = stub(bodies)
    block = inputs_block({"path": "shop/cart.py", "action": "modify"})
    text = "Your file is `shop/cart.py`.\n\nWrite the whole new content of `shop/cart.py`."
    for task in ("implement_file", "plan"):
        system = SystemMessage(content=f"task: {task}\nDo it.")
        await model.ainvoke([system, HumanMessage(content=f"{text}\n\n{block}")])
    implement, plan = (body["messages"][1]["content"] for body in bodies)
    assert implement == text  # the small model answered with that block instead of the code
    assert plan.endswith(block)  # other tasks keep theirs
