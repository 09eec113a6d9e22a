"""A small OpenAI-compatible Chat Completions server for tests: scripted, counting, holdable.

A brain turns each request body into a reply: text, or tool calls. Every request is recorded;
requests a hold matches wait until the hold is released (to freeze a run at a known step).
"""

import asyncio
import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from llm.metering import estimate_tokens
from llm.prompting import read_task


@dataclass
class ToolCalls:
    """A reply that calls tools: (name, arguments) pairs."""

    calls: list[tuple[str, dict[str, Any]]]


Reply = str | ToolCalls
Brain = Callable[[dict[str, Any]], Reply]


@dataclass
class Call:
    """One request the server answered (or is holding)."""

    body: dict[str, Any]
    task: str
    inputs: dict[str, Any]
    held: bool = False
    tokens: int = 0


def task_of(body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The ticketsmith task and inputs a request carries (from the prompt contract)."""
    messages: list[BaseMessage] = []
    for message in body.get("messages", []):
        content = message.get("content") or ""
        if isinstance(content, list):
            content = "".join(part.get("text", "") for part in content)
        if message.get("role") == "system":
            messages.append(SystemMessage(content=content))
        elif message.get("role") == "user":
            messages.append(HumanMessage(content=content))
    task, inputs = read_task(messages)
    return task or "", inputs


@dataclass
class FakeModelServer:
    """The server; `start()` runs it on a free port in a thread and returns its base URL."""

    brain: Brain
    hold: Callable[[Call], bool] | None = None
    calls: list[Call] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)
    base_url: str = ""
    _server: uvicorn.Server | None = None
    _thread: threading.Thread | None = None

    def app(self) -> FastAPI:
        """The ASGI app."""
        app = FastAPI()

        @app.post("/v1/chat/completions")
        async def completions(request: Request) -> JSONResponse:
            body = await request.json()
            task, inputs = task_of(body)
            call = Call(body=body, task=task, inputs=inputs)
            self.calls.append(call)
            if self.hold is not None and not self.released.is_set() and self.hold(call):
                call.held = True
                while not self.released.is_set():
                    await asyncio.sleep(0.05)
            answer = completion(body, self.brain(body), len(self.calls))
            call.tokens = answer["usage"]["total_tokens"]
            return JSONResponse(answer)

        @app.get("/v1/models")
        async def models() -> dict[str, Any]:
            return {"object": "list", "data": [{"id": "fake", "object": "model"}]}

        return app

    def start(self) -> str:
        """Serve in a background thread; the base URL to give ChatOpenAI."""
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        config = uvicorn.Config(self.app(), host="127.0.0.1", port=port, log_level="warning")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the fake model server did not start")
            time.sleep(0.02)
        self.base_url = f"http://127.0.0.1:{port}/v1"
        return self.base_url

    def __enter__(self) -> "FakeModelServer":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Release every hold and stop serving."""
        self.released.set()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)

    def count(self, task: str, **inputs: Any) -> int:
        """How many requests were for this task (and these input values)."""
        return sum(
            1
            for c in self.calls
            if c.task == task and all(c.inputs.get(k) == v for k, v in inputs.items())
        )


def completion(body: dict[str, Any], reply: Reply, number: int) -> dict[str, Any]:
    """A Chat Completions response for a reply, with deterministic usage."""
    prompt_tokens = estimate_tokens(json.dumps(body.get("messages", [])))
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if isinstance(reply, ToolCalls):
        message["tool_calls"] = [
            {
                "id": f"call_{number}_{i}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            for i, (name, args) in enumerate(reply.calls)
        ]
        finish, output = "tool_calls", json.dumps(message["tool_calls"])
    else:
        message["content"] = reply
        finish, output = "stop", reply
    completion_tokens = estimate_tokens(output) + 1
    return {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }
