"""The floor the loop must beat: one bare call of the model, the ticket and its files in,
whole files out, nothing checked or revised."""

from pathlib import Path

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from bench.quality.reference_plan import ticket_context
from bench.quality.tickets import Ticket
from graphs.implementation.worker.draft import bare_messages
from graphs.schemas import FileChange
from llm.fences import find_file_block
from llm.metering import count_call


def floor_messages(ticket: Ticket, repo: Path, paths: list[str]) -> list[BaseMessage]:
    """The ticket as its reporter wrote it, its answers, then each file's current content."""
    files = [(p, (repo / p).read_text() if (repo / p).is_file() else "") for p in paths]
    return bare_messages(ticket_context(ticket), ticket.answers, files)


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
