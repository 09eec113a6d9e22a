"""Nodes of the analysis graph: scan, detect, index, summarise."""

import logging
from typing import Any

from langchain_core.language_models import BaseChatModel

from graphs.analysis.index import CodeIndex
from graphs.analysis.landmarks import main_modules
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
from graphs.schemas import TicketContext
from llm.prompting import task_prompt
from llm.structured import ModelAnswerError, ask_structured, trim

log = logging.getLogger("ticketsmith.analysis")
# The prompt holds at most these, however large the repository: its size must not grow with it.
PROMPT_FILES = 40
MAIN_MODULES = 12
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
        files = state["files"]
        relevant = mentioned_files(query, files) + [s.path for s in snippets]
        main = main_modules(state["repo_dir"], files, MAIN_MODULES)
        listed = select_files(files, relevant + main, PROMPT_FILES)
        inputs = {
            "ticket": ticket.model_dump(),
            "languages": state["languages"],
            "frameworks": state["frameworks"],
            "test_command": state["test_command"],
            "file_count": len(files),
            "main_modules": main,
            "files": listed,
            "files_left_out": len(files) - len(listed),
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
        try:
            answer, tokens = await ask_structured(model, system, human, AnalysisAnswer)
        except ModelAnswerError as err:  # the summary is context only: the facts will do
            log.warning("no usable repository summary from the model, using the facts: %s", err)
            return {"summary": facts_summary(state), "tokens": err.tokens}
        return {"summary": answer.summary.strip(), "tokens": tokens}

    return summarise


def facts_summary(state: AnalysisState) -> str:
    """A summary from what the scan found, for when the model gives none."""
    languages = ", ".join(state["languages"]) or "unknown languages"
    frameworks = f" using {', '.join(state['frameworks'])}" if state["frameworks"] else ""
    tests = f"; tests run with `{state['test_command']}`" if state["test_command"] else ""
    return f"A repository of {len(state['files'])} files in {languages}{frameworks}{tests}."
