"""Let a model call tools (bounded) before it answers; tool calls written as JSON text count too.

Small local models often cannot make native tool calls and write the call as JSON instead,
so such a text is run as a call as well.
"""

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool

from llm.metering import count_call
from llm.structured import extract_json, trim

MAX_TOOL_ROUNDS = 2
MAX_CALLS_PER_ROUND = 3
RESULT_LIMIT = 4000


def bind(model: BaseChatModel, tools: Sequence[BaseTool], **kwargs: Any) -> Runnable[Any, Any]:
    """The model with the tools bound, or the bare model when it cannot call tools."""
    if not tools:
        return model
    try:
        return model.bind_tools(list(tools), **kwargs)
    except NotImplementedError:
        return model


def text_tool_call(text: str, tools: dict[str, BaseTool]) -> dict[str, Any] | None:
    """A tool call the model wrote as JSON text (`{"name": ..., "arguments": {...}}`), if any."""
    try:
        value = extract_json(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or value.get("name") not in tools:
        return None
    args = value.get("arguments", value.get("parameters", value.get("args")))
    return {"name": value["name"], "args": args} if isinstance(args, dict) else None


async def run_tool(tools: dict[str, BaseTool], name: str, args: dict[str, Any]) -> str:
    """The tool's answer as text; a failing or unknown tool answers with the error."""
    tool = tools.get(name)
    if tool is None:
        return f"There is no tool named {name!r}; available: {', '.join(tools)}."
    try:
        return trim(str(await tool.ainvoke(args)), RESULT_LIMIT)
    except Exception as error:  # the model should read what went wrong, not crash the graph
        return f"The tool {name} failed: {error}"


async def invoke_with_tools(
    model: BaseChatModel,
    messages: list[BaseMessage],
    tools: Sequence[BaseTool],
    max_rounds: int = MAX_TOOL_ROUNDS,
) -> tuple[AIMessage, int, list[BaseMessage]]:
    """The model's final answer after at most `max_rounds` rounds of tool calls.

    Returns the answer, the tokens of every call and the whole conversation.
    """
    by_name = {tool.name: tool for tool in tools}
    history = list(messages)
    tokens = 0
    for round_number in range(max_rounds + 1):
        last = round_number == max_rounds
        runnable = bind(model, tools, tool_choice="none") if last else bind(model, tools)
        answer = await runnable.ainvoke(history)
        tokens += count_call(answer, history)
        if last or not tools:
            return answer, tokens, [*history, answer]
        if answer.tool_calls:
            history.append(answer)
            for i, call in enumerate(answer.tool_calls):
                if i < MAX_CALLS_PER_ROUND:
                    result = await run_tool(by_name, call["name"], call["args"])
                else:
                    result = f"Skipped: at most {MAX_CALLS_PER_ROUND} tool calls at a time."
                history.append(ToolMessage(content=result, tool_call_id=call["id"] or ""))
            continue
        written = text_tool_call(answer.text, by_name)
        if written is None:
            return answer, tokens, [*history, answer]
        result = await run_tool(by_name, written["name"], written["args"])
        history += [answer, HumanMessage(content=f"Result of {written['name']}:\n{result}")]
    raise AssertionError("unreachable: the last round always returns")
