"""The manager: is the request a development request, and what is the MVP's high-level plan."""

from typing import Annotated, Literal

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

from graphs.offline import is_offline
from llm.prompting import task_prompt
from llm.structured import ask_structured, capped, cut_text

MAX_TASKS = 10
MAX_PROMPT_CHARS = 4000
MAX_USAGE_CHARS = 300

# Where a first user meets the project: a desktop window only when the request asks for one.
Interface = Literal["command line", "web server", "library", "desktop"]


class ManagerAnswer(BaseModel):
    """What the model answers."""

    development: bool
    reason: str
    plan: str = ""
    tasks: Annotated[list[str], capped(MAX_TASKS), Field(max_length=MAX_TASKS)] = Field(
        default_factory=list
    )
    interface: Interface = "command line"
    run_command: Annotated[str, cut_text(MAX_USAGE_CHARS), Field(max_length=MAX_USAGE_CHARS)] = ""
    first_use: Annotated[str, cut_text(MAX_USAGE_CHARS), Field(max_length=MAX_USAGE_CHARS)] = ""
    url: Annotated[str, cut_text(MAX_USAGE_CHARS), Field(max_length=MAX_USAGE_CHARS)] = ""


class ManagerDecision(ManagerAnswer):
    """The manager's decision, with the tokens it took."""

    produced_offline: bool = False
    tokens: int = 0


async def decide(model: BaseChatModel, prompt: str) -> ManagerDecision:
    """Read the request; a non-development request gets `development: false` and a reason."""
    system, human = task_prompt("manager", {"request": prompt[:MAX_PROMPT_CHARS]})
    answer, tokens = await ask_structured(model, system, human, ManagerAnswer)
    return ManagerDecision(**answer.model_dump(), produced_offline=is_offline(model), tokens=tokens)
