"""Nodes of the analysis graph: scan, detect, index, summarise."""

from typing import Any

from langchain_core.language_models import BaseChatModel

from graphs.analysis.index import CodeIndex
from graphs.analysis.scan import (
    detect_frameworks,
    detect_languages,
    detect_test_command,
    mentioned_files,
    scan_files,
    select_files,
)
from graphs.analysis.state import AnalysisAnswer, AnalysisState
from graphs.node_types import AsyncNode
from graphs.prompting import task_prompt
from graphs.schemas import TicketContext
from graphs.structured import ask_structured, trim

PROMPT_FILES = 40
PROMPT_SNIPPETS = 3
SNIPPET_CHARS = 600


def ticket_text(ticket: TicketContext) -> str:
    """The ticket's words, for matching files and code."""
    return "\n".join([ticket.summary, ticket.description, ticket.acceptance_criteria or ""])


def scan(state: AnalysisState) -> dict[str, Any]:
    """List the repository's files."""
    return {"files": scan_files(state["repo_dir"])}


def detect(state: AnalysisState) -> dict[str, Any]:
    """Detect languages, frameworks and the test command."""
    repo_dir, files = state["repo_dir"], state["files"]
    frameworks = detect_frameworks(repo_dir, files)
    return {
        "languages": detect_languages(files),
        "frameworks": frameworks,
        "test_command": detect_test_command(repo_dir, files, frameworks),
    }


def index(state: AnalysisState) -> dict[str, Any]:
    """Build the keyword index for context queries."""
    return {"index": CodeIndex.build(state["repo_dir"], state["files"])}


def make_summarise(model: BaseChatModel) -> AsyncNode[AnalysisState]:
    """The node that asks the model for the repository summary."""

    async def summarise(state: AnalysisState) -> dict[str, Any]:
        ticket = state["ticket"]
        query = ticket_text(ticket)
        snippets = state["index"].context_query(query, k=PROMPT_SNIPPETS)
        relevant = mentioned_files(query, state["files"]) + [s.path for s in snippets]
        inputs = {
            "ticket": ticket.model_dump(),
            "languages": state["languages"],
            "frameworks": state["frameworks"],
            "test_command": state["test_command"],
            "file_count": len(state["files"]),
            "files": select_files(state["files"], relevant, PROMPT_FILES),
            "snippets": [
                {
                    "path": s.path,
                    "lines": f"{s.start_line}-{s.end_line}",
                    "text": trim(s.text, SNIPPET_CHARS),
                }
                for s in snippets
            ],
        }
        system, human = task_prompt("analysis", inputs, key=ticket.key, summary=ticket.summary)
        answer, tokens = await ask_structured(model, system, human, AnalysisAnswer)
        return {"summary": answer.summary.strip(), "tokens": tokens}

    return summarise
