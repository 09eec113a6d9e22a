"""What an agent step sends to its activity and gets back (shared by workflow and activities)."""

from typing import Any

from pydantic import BaseModel, Field

from llm.cost import ModelCost


class AgentCall(BaseModel):
    """One agent step's call: its input read from the graph's state and its constant params."""

    graph: str
    step: str
    # Unique per workflow run, step and iteration: side effects use it to happen once.
    idempotency_key: str
    input: dict[str, Any] = Field(default_factory=dict)
    params: dict[str, Any] = Field(default_factory=dict)


class AgentResult(BaseModel):
    """What the agent produced (stored at the step's `output`) and the model tokens it used."""

    output: Any = None
    tokens: int = 0
    cost: ModelCost = Field(default_factory=ModelCost)
    summary: str = ""
