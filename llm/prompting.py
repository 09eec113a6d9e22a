"""Prompt files and the message contract every graph and the offline model share.

A system message starts with `task: <name>`; a human message ends with its inputs
as a fenced ```json block.
"""

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
TASKS = (
    "analysis",
    "questions",
    "requirements",
    "triage",
    "plan",
    "acceptance_checks",
    "targets",
    "implement_file",
    "review",
    "manager",
    "resolve_conflict",
    "judge_comments",
    "research_plan",
    "research_findings",
    "research_report",
)

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_TASK_LINE = re.compile(r"^task:\s*([a-z_]+)\s*$")
_INPUTS_OPEN = "```json\n"


@cache
def load_prompt(name: str) -> str:
    """The text of `llm/prompts/<name>.md`."""
    return (PROMPTS_DIR / f"{name}.md").read_text(encoding="utf-8")


def render(template: str, **values: str) -> str:
    """Fill `{name}` placeholders; other braces (JSON examples) stay as they are."""

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise KeyError(f"prompt placeholder {{{name}}} has no value")
        return values[name]

    return _PLACEHOLDER.sub(fill, template)


def inputs_block(inputs: dict[str, Any]) -> str:
    """The inputs as the fenced JSON block that ends a human message."""
    return _INPUTS_OPEN + json.dumps(inputs, indent=1, ensure_ascii=False) + "\n```"


def task_prompt(task: str, inputs: dict[str, Any], **values: str) -> tuple[str, str]:
    """The (system, human) texts of a task: its two prompt files, then the inputs block."""
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; known tasks: {', '.join(TASKS)}")
    system = render(load_prompt(f"{task}.system"), **values).strip()
    if _TASK_LINE.match(system.splitlines()[0]) is None:
        raise ValueError(f"prompt {task}.system.md must start with 'task: {task}'")
    human = render(load_prompt(f"{task}.human"), **values).strip()
    return system, f"{human}\n\n{inputs_block(inputs)}"


def task_messages(task: str, inputs: dict[str, Any], **values: str) -> list[BaseMessage]:
    """The task's prompt as chat messages."""
    system, human = task_prompt(task, inputs, **values)
    return [SystemMessage(content=system), HumanMessage(content=human)]


def without_inputs(text: str) -> str:
    """A human message's text without the inputs block that ends it (unchanged if none)."""
    start = text.rfind(_INPUTS_OPEN)
    if start < 0 or _parse_inputs(text) is None:
        return text
    return text[:start].rstrip()


def read_task(messages: list[BaseMessage]) -> tuple[str | None, dict[str, Any]]:
    """The task name and inputs a prompt carries (None and {} when it carries none)."""
    task: str | None = None
    for message in messages:
        if isinstance(message, SystemMessage) and message.text.strip():
            match = _TASK_LINE.match(message.text.strip().splitlines()[0])
            task = match.group(1) if match else None
            break
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            inputs = _parse_inputs(message.text)
            if inputs is not None:
                return task, inputs
    return task, {}


def _parse_inputs(text: str) -> dict[str, Any] | None:
    """The JSON object in the last ```json block of a text, if any."""
    start = text.rfind(_INPUTS_OPEN)
    if start < 0:
        return None
    body = text[start + len(_INPUTS_OPEN) :].rstrip()
    body = body.removesuffix("```")
    try:
        value = json.loads(body)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
