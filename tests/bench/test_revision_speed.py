"""The revision-speed bench: the QA review it times is the review node's prompt, told the
reference's change, with the writers' calls of each revision before it."""

import json
from typing import Any

import httpx

from bench.quality.tickets import load_tickets
from bench.revision_speed import revisions_of, row
from localmodel.chat import local_chat_model

REVIEW = {"passed": False, "summary": "The tests fail.", "fixes": []}


def answer(body: dict[str, Any]) -> dict[str, Any]:
    """What the server would say: a review for the review, a fenced file for a writer."""
    is_review = body["messages"][0]["content"].startswith("task: review")
    content = json.dumps(REVIEW) if is_review else "```python\nVALUE = 1\n```"
    usage: dict[str, Any] = {"prompt_tokens": 1200, "completion_tokens": 30, "total_tokens": 1230}
    usage["prompt_tokens_details"] = {"cached_tokens": 600 if is_review else 0}
    message = {"role": "assistant", "content": content}
    return {
        "id": "c1", "object": "chat.completion", "created": 0, "model": "local", "usage": usage,
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
    }  # fmt: skip


SSE = {"content-type": "text/event-stream"}


def streamed(full: dict[str, Any]) -> bytes:
    """The answer as server-sent events: its text, its finish, then its usage."""
    head = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "local"}
    text = full["choices"][0]["message"]["content"]
    chunks = [
        {**head, "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]},
        {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        {**head, "choices": [], "usage": full["usage"]},
    ]
    return b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in chunks) + b"data: [DONE]\n\n"


async def test_each_revision_is_written_then_reviewed_on_its_own_diff() -> None:
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        full = answer(bodies[-1])
        if not bodies[-1].get("stream"):
            return httpx.Response(200, json=full)
        return httpx.Response(200, content=streamed(full), headers=SSE)

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    model = local_chat_model("http://local.test/v1", http_async_client=client)
    [ticket] = load_tickets(["slug-separator"])
    measured = await revisions_of(model, ticket, 2)
    reviews = [b["messages"][1]["content"] for b in bodies if "task: review" in str(b)]
    assert [m.revision for m in measured] == [1, 2] and len(reviews) == 2
    assert "# revision 1" in reviews[0] and "# revision 2" in reviews[1]
    assert reviews[1].startswith(reviews[0][: reviews[0].index('"changed_files"')])
    assert measured[1].review.prompt == 1200 and measured[1].review.cached == 600
    assert row(1, measured[1]).rstrip().endswith("1200     50%")
