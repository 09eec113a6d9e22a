"""State of the analysis graph and the model's answer schema."""

from pathlib import Path
from typing import TypedDict

from pydantic import BaseModel, Field

from graphs.analysis.index import CodeIndex
from graphs.schemas import TicketContext


class AnalysisInput(TypedDict):
    """What the graph is started with."""

    repo_dir: Path
    ticket: TicketContext


class AnalysisState(AnalysisInput, total=False):
    """Everything the nodes read and write."""

    files: list[str]
    languages: list[str]
    frameworks: list[str]
    test_command: str | None
    index: CodeIndex
    summary: str
    tokens: int


class AnalysisAnswer(BaseModel):
    """The model's part of the analysis."""

    summary: str = Field(description="At most five sentences about the repository and the ticket")
