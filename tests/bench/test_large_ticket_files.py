"""The files the product picks for a ticket in a repository of 100+ modules hold the change."""

from pathlib import Path

from bench.quality.tickets import load_ticket
from graphs.analysis import analyse_repository, index_repository
from graphs.analysis.scan import mentioned_files
from graphs.offline import OfflineChatModel
from graphs.planning.nodes import (
    CANDIDATE_FILES,
    RELATED_SNIPPETS,
    candidate_files,
    ticket_words_of,
)
from graphs.schemas import TicketContext

TICKET = load_ticket(Path(__file__).parents[2] / "bench" / "quality" / "tickets" / "parcel-weight")
CHANGED = "depot/shipping/weights.py"


def ticket_context() -> TicketContext:
    """The ticket as the Jira emulator gives it to the workflow."""
    issue = TICKET.issue()
    return TicketContext(
        key=TICKET.key,
        summary=TICKET.summary,
        description=str(issue["description"]),
        acceptance_criteria="\n".join(f"- {c}" for c in TICKET.acceptance_criteria),
    )


def test_the_repository_has_over_a_hundred_modules_and_the_ticket_names_none() -> None:
    modules = [p for p in TICKET.repo_dir.rglob("*.py") if p.name != "__init__.py"]
    assert len(modules) > 100
    text = ticket_words_of(ticket_context(), None)
    assert "weights" not in text and mentioned_files(text, [CHANGED]) == []


async def test_the_analysis_and_the_plans_inputs_pick_the_module_to_change() -> None:
    ticket = ticket_context()
    analysis = await analyse_repository(OfflineChatModel(), TICKET.repo_dir, ticket)
    text = ticket_words_of(ticket, None)
    candidates = candidate_files(analysis.files, text, [], CANDIDATE_FILES)
    related = index_repository(TICKET.repo_dir).context_query(text, k=RELATED_SNIPPETS)
    assert CHANGED in analysis.files
    assert CHANGED in candidates  # the plan prompt's candidate files
    assert CHANGED in [s.path for s in related]  # the code the plan prompt is shown
