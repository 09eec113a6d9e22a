"""The floor the loop must beat: one bare call of the model, the ticket and its files in,
whole files out, nothing checked or revised."""

from pathlib import Path

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from bench.quality.tickets import Ticket
from graphs.implementation.worker.window import fence_language
from graphs.schemas import FileChange
from llm.fences import fence, find_file_block
from llm.metering import count_call

SYSTEM = (
    "You are a software engineer. Change the files below as the ticket asks. Answer with"
    " every file you change: its path on one line, then its complete new content in one"
    " fenced code block. Write nothing else."
)


def floor_messages(ticket: Ticket, repo: Path, paths: list[str]) -> list[BaseMessage]:
    """The ticket as its reporter wrote it, its answers, then each file's current content."""
    criteria = "\n".join(f"- {c}" for c in ticket.acceptance_criteria) or "(none)"
    files = "\n\n".join(
        fence(
            path, (repo / path).read_text() if (repo / path).is_file() else "", fence_language(path)
        )
        for path in paths
    )
    human = (
        f"Ticket {ticket.key}: {ticket.summary}\n\n{ticket.description.strip()}\n\n"
        f"Acceptance criteria:\n{criteria}\n\n"
        f"The reporter's answers to questions:\n{ticket.answers.strip() or '(none)'}\n\n"
        f"The files:\n\n{files}"
    )
    return [SystemMessage(content=SYSTEM), HumanMessage(content=human)]


def answered_files(answer: str, paths: list[str]) -> list[FileChange]:
    """The files an answer writes: each block headed by one of `paths` (the only block, when
    one file was given and its header names none)."""
    found = {path: find_file_block(answer, path, fallback=len(paths) == 1) for path in paths}
    return [FileChange(path=path, content=body) for path, body in found.items() if body]


async def floor_changes(
    model: BaseChatModel, ticket: Ticket, repo: Path
) -> tuple[list[FileChange], int]:
    """The files one call of the model writes for the ticket's reference files, and its tokens."""
    paths = ticket.reference_paths()
    messages = floor_messages(ticket, repo, paths)
    answer = await model.ainvoke(messages)
    return answered_files(answer.text, paths), count_call(answer, messages)
