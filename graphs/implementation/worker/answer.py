"""Asking a worker for a file's content, and asking again when it repeats the task instead.

A prompt ends with the task's inputs as a JSON block; a small model sometimes answers with
that block under the file's path. JSON of a dict is valid Python, so the gate would pass it
and the file would lose its code: it is caught here and asked again once, with the reason.
"""

import json
from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.tools import BaseTool

from graphs.implementation.worker.cut_short import cut_short, kept_of_cut, loop_problem
from graphs.models import capped
from llm.fences import find_file_block
from llm.metering import estimate_tokens
from llm.toolloop import invoke_with_tools

ECHOED = "the answer repeated the task's inputs instead of the file"
MIN_ANSWER_TOKENS = 768
ANSWER_SLACK_TOKENS = 512


def bounded(model: BaseChatModel, shown: str, times: int = 2) -> BaseChatModel:
    """The model with its answer bounded by `times` the text it rewrites (plus some slack).

    An answer far longer than that is a loop: the local model was seen writing 2,500 tokens
    of repeated tests for a 10-line file, five minutes of a slow machine.
    """
    if not shown:
        return model
    bound = times * estimate_tokens(shown) + ANSWER_SLACK_TOKENS
    return capped(model, max(MIN_ANSWER_TOKENS, bound))


def echoes_task(text: str, path: str) -> bool:
    """Whether a code block is the task's inputs (a JSON object naming this file) echoed."""
    try:
        value = json.loads(text)
    except ValueError:
        return False
    return isinstance(value, dict) and value.get("path") == path and "action" in value


def correction(path: str) -> str:
    """What the worker is told when it repeated the task."""
    return (
        f"That is the task's JSON, not the file. Answer again: `{path}` on one line, then the"
        " complete new content of the file in one fenced code block, and nothing else."
    )


async def ask_for_file(
    model: BaseChatModel,
    messages: list[BaseMessage],
    tools: Sequence[BaseTool],
    path: str,
    shown: str | None = None,
) -> tuple[str | None, int, str]:
    """The file's new text from the answer (None if there is none), the tokens, and a problem;
    a block repeating `shown`, the text the worker was shown, gives way to a later one, and
    an answer cut short keeps only a test module's finished part."""
    answer, tokens, history = await invoke_with_tools(model, messages, tools)
    text = find_file_block(answer.text, path, unlike=shown)
    if cut_short(answer):
        kept = kept_of_cut(path, text)
        return kept, tokens, "" if kept is not None else loop_problem(answer)
    if text is None or not echoes_task(text, path):
        return text, tokens, ""
    again = [*history, HumanMessage(content=correction(path))]
    answer, more, _ = await invoke_with_tools(model, again, tools)
    text = find_file_block(answer.text, path, unlike=shown)
    if text is not None and echoes_task(text, path):
        return None, tokens + more, ECHOED
    return text, tokens + more, ""
