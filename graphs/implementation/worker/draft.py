"""A file's first draft: one bare call, the ticket and the file in, the whole file out.

The loop's worker prompt carries the plan, the requirements, the analysis and related code;
on a small model one bare call, the ticket as its reporter wrote it with the answers and the
file, wrote the change as often in a fraction of the time (bench/quality/HISTORY.md). The
first revision of a file short enough to be written whole is asked so; the loop's tests,
QA and later revisions, with the full prompt, take it from there.
"""

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from graphs.implementation.worker.answer import bounded
from graphs.implementation.worker.window import fence_language
from graphs.schemas import TicketContext
from llm.fences import fence, find_file_block
from llm.metering import count_call

# About 1,500 tokens: the ticket, the file and its new version fit a 4,096-token context.
DRAFT_MAX_CHARS = 6000
BARE_SYSTEM = (
    "You are a software engineer. Change the files below as the ticket asks. Answer with"
    " every file you change: its path on one line, then its complete new content in one"
    " fenced code block. Write nothing else."
)


def bare_messages(
    ticket: TicketContext, answers: str, files: Sequence[tuple[str, str]]
) -> list[BaseMessage]:
    """The ticket as its reporter wrote it, the answers, then each file's current content."""
    criteria = (ticket.acceptance_criteria or "").strip() or "(none)"
    shown = "\n\n".join(fence(path, text, fence_language(path)) for path, text in files)
    human = (
        f"Ticket {ticket.key}: {ticket.summary}\n\n{ticket.description.strip()}\n\n"
        f"Acceptance criteria:\n{criteria}\n\n"
        f"The reporter's answers to questions:\n{answers.strip() or '(none)'}\n\n"
        f"The files:\n\n{shown}"
    )
    return [SystemMessage(content=BARE_SYSTEM), HumanMessage(content=human)]


def drafted(path: str, current: str) -> bool:
    """Whether a file's first revision is a bare draft: it is short enough to be written whole."""
    return len(current) <= DRAFT_MAX_CHARS and not path.endswith((".json", ".lock"))


async def write_draft(
    model: BaseChatModel, ticket: TicketContext, answers: str, path: str, current: str
) -> tuple[str | None, int]:
    """The file's new content from one bare call (None: the answer held none), and its tokens."""
    messages = bare_messages(ticket, answers, [(path, current)])
    answer = await bounded(model, current).ainvoke(messages)
    return find_file_block(answer.text, path, unlike=current or None), count_call(answer, messages)
