"""What a research step heartbeats: when it started and the tool answers it has got, kept small.

A retried attempt, on this worker or another, reads it back from the heartbeat details and
answers those calls itself. Each answer is kept by its call (tool and arguments) with its texts
cut to what the agents read of them (`graphs.research.sources.compact`), never whole documents,
and the whole record stays under MAX_PROGRESS_CHARS: an answer that would not fit is not kept,
so only a retry's call of it is repeated.
"""

import json
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from langchain_mcp_adapters.interceptors import MCPToolCallRequest, MCPToolCallResult
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, Field, ValidationError

from activities.heartbeat import Checkpoint
from activities.research.tools import client_span
from graphs.research.sources import TEXT_LIMIT, compact

MAX_PROGRESS_CHARS = 64_000


class ToolAnswer(BaseModel):
    """One call's answer as kept: its structured content (texts cut), or its error's text."""

    structured: dict[str, Any] | None = None
    text: str = ""
    is_error: bool = False

    @classmethod
    def of(cls, result: CallToolResult) -> "ToolAnswer":
        """The answer to keep for a call's result."""
        if result.structuredContent is not None and not result.isError:
            return cls(structured=compact(result.structuredContent))
        text = "\n".join(c.text for c in result.content if isinstance(c, TextContent))
        return cls(text=text[:TEXT_LIMIT], is_error=result.isError)

    def result(self) -> CallToolResult:
        """The answer as the MCP client had it (texts cut)."""
        text = json.dumps(self.structured) if self.structured is not None else self.text
        return CallToolResult(
            content=[TextContent(type="text", text=text)],
            structuredContent=self.structured,
            isError=self.is_error,
        )


class StepProgress(BaseModel):
    """A research step's checkpoint: its first start and its tool answers by call."""

    started_at: datetime
    answers: dict[str, ToolAnswer] = Field(default_factory=dict)

    @classmethod
    def resumed(cls, details: Any, now: datetime) -> "StepProgress":
        """The progress an earlier attempt heartbeated, else a fresh one."""
        if details is not None:
            try:
                return cls.model_validate(details)
            except ValidationError:
                pass  # an older worker's checkpoint: start afresh, the calls only read
        return cls(started_at=now)

    def size(self) -> int:
        """Characters of the checkpoint as JSON."""
        return len(self.model_dump_json())


def call_key(name: str, args: dict[str, Any]) -> str:
    """A call's reference: the tool and its arguments."""
    return f"{name} {json.dumps(args, sort_keys=True)}"


class ToolCallJournal:
    """Answers the calls an earlier attempt made; records and heartbeats new answers."""

    def __init__(self, checkpoint: Checkpoint, progress: StepProgress) -> None:
        self.checkpoint = checkpoint
        self.progress = progress
        self.calls = 0  # calls that reached the tool server in this attempt
        self.resumed = 0  # calls answered from what earlier attempts got

    @property
    def answers(self) -> dict[str, ToolAnswer]:
        """The answers kept so far, by call."""
        return self.progress.answers

    async def __call__(
        self,
        request: MCPToolCallRequest,
        handler: Callable[[MCPToolCallRequest], Awaitable[MCPToolCallResult]],
    ) -> MCPToolCallResult:
        """A call answered before is answered from the journal; a new one goes to the server."""
        key = call_key(request.name, request.args)
        if key in self.answers:
            self.resumed += 1
            return self.answers[key].result()
        self.calls += 1
        with client_span(request.name):
            result = await handler(request)
        if isinstance(result, CallToolResult):
            self._keep(key, ToolAnswer.of(result))
        return result

    def _keep(self, key: str, answer: ToolAnswer) -> None:
        """Record an answer and heartbeat it, unless the checkpoint would grow too big."""
        extra = len(key) + len(answer.model_dump_json()) + 8
        if self.progress.size() + extra > MAX_PROGRESS_CHARS:
            return
        self.answers[key] = answer
        self.checkpoint.save(self.progress)
