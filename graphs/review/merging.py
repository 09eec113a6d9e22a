"""Resolving one merge conflict with the model: whole file in, whole file out, or give up."""

from langchain_core.language_models import BaseChatModel

from llm.fences import fence, find_file_block
from llm.metering import count_call
from llm.prompting import task_messages

MARKERS = ("<<<<<<<", ">>>>>>>")


async def resolve_conflict(
    model: BaseChatModel, key: str, branch: str, base: str, path: str, conflicted: str
) -> tuple[str | None, int]:
    """The resolved content of a conflicted file (None when the model cannot) and tokens used."""
    messages = task_messages(
        "resolve_conflict",
        {"path": path},
        key=key,
        branch=branch,
        base=base,
        path=path,
        conflicted=fence(path, conflicted),
    )
    answer = await model.ainvoke(messages)
    text = answer.content if isinstance(answer.content, str) else str(answer.content)
    tokens = count_call(answer, messages)
    if "UNRESOLVABLE" in text.split("```")[0]:
        return None, tokens
    resolved = find_file_block(text, path)
    if resolved is None or any(marker in resolved for marker in MARKERS):
        return None, tokens
    return (resolved if resolved.endswith("\n") else resolved + "\n"), tokens
