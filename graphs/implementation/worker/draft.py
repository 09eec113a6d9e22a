"""A file's bare draft: one bare call, the ticket and the file in, the whole file out.

The loop's worker prompt carries the plan, the requirements, the analysis and related code;
on a small model one bare call, the ticket as its reporter wrote it with the answers and the
file, wrote the change as often in a fraction of the time (bench/quality/HISTORY.md). The
first revision of a file short enough to be written whole can be asked so, and its later
revisions too, told what the last revision's tests and review said.
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
# About 400 tokens of what the last revision's tests and review said, within that context.
FEEDBACK_MAX_CHARS = 1600
BARE_SYSTEM = (
    "You are a software engineer. Change the files below as the ticket asks. Answer with"
    " every file you change: its path on one line, then its complete new content in one"
    " fenced code block. Write nothing else."
)


def bare_messages(
    ticket: TicketContext, answers: str, files: Sequence[tuple[str, str]], feedback: str = ""
) -> list[BaseMessage]:
    """The ticket as its reporter wrote it, the answers, what the last version's tests and
    review said (if tried), then each file's current content."""
    criteria = (ticket.acceptance_criteria or "").strip() or "(none)"
    shown = "\n\n".join(fence(path, text, fence_language(path)) for path, text in files)
    said = feedback.strip()
    if len(said) > FEEDBACK_MAX_CHARS:
        said = said[:FEEDBACK_MAX_CHARS].rstrip() + "\n..."
    tried = f"The version below was tried, and it is not done yet:\n{said}\n\n" if said else ""
    human = (
        f"Ticket {ticket.key}: {ticket.summary}\n\n{ticket.description.strip()}\n\n"
        f"Acceptance criteria:\n{criteria}\n\n"
        f"The reporter's answers to questions:\n{answers.strip() or '(none)'}\n\n"
        f"{tried}The files:\n\n{shown}"
    )
    return [SystemMessage(content=BARE_SYSTEM), HumanMessage(content=human)]


def drafted(path: str, current: str) -> bool:
    """Whether a file's first revision is a bare draft: it is short enough to be written whole."""
    return len(current) <= DRAFT_MAX_CHARS and not path.endswith((".json", ".lock"))


async def write_draft(
    model: BaseChatModel,
    ticket: TicketContext,
    answers: str,
    path: str,
    current: str,
    feedback: str = "",
) -> tuple[str | None, int]:
    """The file's new content from one bare call (None: the answer held none), and its tokens."""
    messages = bare_messages(ticket, answers, [(path, current)], feedback)
    answer = await bounded(model, current).ainvoke(messages)
    return find_file_block(answer.text, path, unlike=current or None), count_call(answer, messages)
