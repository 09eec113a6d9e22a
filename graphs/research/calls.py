"""Calling the tool server's tools (LangChain tools loaded from MCP) for their structured answer."""

import json
from collections.abc import Sequence
from typing import Any

import httpx
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool


class ToolMissingError(LookupError):
    """The tool server does not offer a tool an agent needs."""


class ToolFailedError(RuntimeError):
    """The tool answered with an error of its own (not found, bad input): not worth a retry."""


def find(tools: Sequence[BaseTool], name: str) -> BaseTool:
    """The tool by name, or an error naming the tools there are."""
    for tool in tools:
        if tool.name == name:
            return tool
    names = ", ".join(t.name for t in tools) or "none"
    raise ToolMissingError(f"the tool server has no tool {name!r}; it has: {names}")


async def call(tools: Sequence[BaseTool], name: str, args: dict[str, Any]) -> dict[str, Any]:
    """The tool's structured answer; its own errors raise ToolFailedError, transport errors pass."""
    tool = find(tools, name)
    message = await tool.ainvoke(
        {"name": name, "args": args, "id": f"{name}-call", "type": "tool_call"}
    )
    if not isinstance(message, ToolMessage):
        return _parse(message)
    if message.status == "error":
        raise ToolFailedError(_text(message.content))
    artifact = message.artifact
    if isinstance(artifact, dict) and isinstance(artifact.get("structured_content"), dict):
        return dict(artifact["structured_content"])
    return _parse(_text(message.content))


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = [c.get("text", "") if isinstance(c, dict) else str(c) for c in content or []]
    return "\n".join(parts)


def _parse(value: Any) -> dict[str, Any]:
    data = json.loads(value) if isinstance(value, str) else value
    if not isinstance(data, dict):
        raise ToolFailedError(f"the tool answered {str(value)[:200]!r}, not a JSON object")
    return data


def http_status(error: BaseException) -> int | None:
    """The HTTP status a tool server answered with, found in an error (or its group), if any."""
    if isinstance(error, httpx.HTTPStatusError):
        return error.response.status_code
    inner = list(getattr(error, "exceptions", ())) + [error.__cause__, error.__context__]
    for candidate in inner:
        if isinstance(candidate, BaseException) and candidate is not error:
            found = http_status(candidate)
            if found is not None:
                return found
    return None
