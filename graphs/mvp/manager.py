"""The manager: is the request a development request, and what is the MVP's high-level plan."""

from typing import Annotated

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

from graphs.offline import is_offline
from graphs.prompting import task_prompt
from graphs.structured import ask_structured, capped

MAX_TASKS = 10
MAX_PROMPT_CHARS = 4000


class ManagerAnswer(BaseModel):
    """What the model answers."""

    development: bool
    reason: str
    plan: str = ""
    tasks: Annotated[list[str], capped(MAX_TASKS), Field(max_length=MAX_TASKS)] = Field(
        default_factory=list
    )


class ManagerDecision(ManagerAnswer):
    """The manager's decision, with the tokens it took."""

    produced_offline: bool = False
    tokens: int = 0


async def decide(model: BaseChatModel, prompt: str) -> ManagerDecision:
    """Read the request; a non-development request gets `development: false` and a reason."""
    system, human = task_prompt("manager", {"request": prompt[:MAX_PROMPT_CHARS]})
    answer, tokens = await ask_structured(model, system, human, ManagerAnswer)
    return ManagerDecision(**answer.model_dump(), produced_offline=is_offline(model), tokens=tokens)
