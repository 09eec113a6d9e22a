"""The local model's HTTP client opens a connection per call: none is left idle to go stale."""

import asyncio
import contextlib
import json

from langchain_core.messages import HumanMessage, SystemMessage

from localmodel.chat import local_chat_model
from tests.localmodel.test_chat import completion, event


async def serve(connections: list[int]) -> asyncio.Server:
    """A server answering every request with a completion on a kept-alive connection."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        with contextlib.suppress(asyncio.IncompleteReadError):  # the client closed it
            await answer_each(reader, writer)
        writer.close()
        await writer.wait_closed()

    async def answer_each(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while headers := await reader.readuntil(b"\r\n\r\n"):
            length = next(
                int(line.split(b":")[1])
                for line in headers.split(b"\r\n")
                if line.lower().startswith(b"content-length")
            )
            body = json.loads(await reader.readexactly(length))
            if body.get("stream"):
                choice = {"index": 0, "delta": {"content": "done"}, "finish_reason": "stop"}
                payload, kind = event([choice]) + b"data: [DONE]\n\n", b"text/event-stream"
            else:
                payload, kind = json.dumps(completion("done")).encode(), b"application/json"
            head = b"HTTP/1.1 200 OK\r\nContent-Type: " + kind
            writer.write(head + b"\r\nContent-Length: %d\r\n\r\n" % len(payload) + payload)
            await writer.drain()

    return await asyncio.start_server(handle, "127.0.0.1", 0)


async def test_every_call_opens_its_own_connection() -> None:
    connections: list[int] = []
    server = await serve(connections)
    port = server.sockets[0].getsockname()[1]
    model = local_chat_model(f"http://127.0.0.1:{port}/v1", context=4096)
    try:
        for task in ("plan", "implement_file", "plan"):
            prompt = [SystemMessage(content=f"task: {task}\nDo it."), HumanMessage(content="x")]
            assert (await model.ainvoke(prompt)).text == "done"
    finally:
        server.close()
    assert len(connections) == 3, f"{len(connections)} connections for 3 calls: one was reused"
