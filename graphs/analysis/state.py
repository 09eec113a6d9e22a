"""State of the analysis graph and the model's answer schema."""

from pathlib import Path
from typing import Annotated, TypedDict

from pydantic import BaseModel, Field

from graphs.analysis.index import CodeIndex
from graphs.schemas import TicketContext
from llm.structured import cut_text

# Five sentences fit; a local server's grammar closes the string here, so a summary that goes
# on stops early instead of running to the answer's token limit and being asked again.
SUMMARY_CHARS = 800


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

    summary: Annotated[str, cut_text(SUMMARY_CHARS), Field(max_length=SUMMARY_CHARS)] = Field(
        description="At most five sentences about the repository and the ticket"
    )
