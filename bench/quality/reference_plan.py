"""The implementation loop's input for a benchmark ticket, planned on its reference's files.

Benches that measure the loop alone (bench.revision_speed, bench.ablation) start it from this
plan instead of the planner's: every file the reference changes, with the ticket's criteria
and answers as the requirements, so what they measure does not swing with the plan.
"""

from pathlib import Path

from bench.quality.tickets import Ticket
from graphs.implementation.state import ImplementationInput
from graphs.schemas import Plan, PlannedFile, Requirements, TicketContext


def ticket_context(ticket: Ticket) -> TicketContext:
    """The ticket as the loop reads it."""
    criteria = "\n".join(f"- {c}" for c in ticket.acceptance_criteria)
    return TicketContext(
        key=ticket.key, summary=ticket.summary, description=ticket.description,
        acceptance_criteria=criteria,
    )  # fmt: skip


def reference_plan(ticket: Ticket, repo: Path) -> Plan:
    """A plan of the files the reference changes, each to change as the ticket asks."""
    files = [
        PlannedFile(
            path=path,
            action="modify" if (repo / path).is_file() else "create",
            purpose=f"Change what the ticket asks of {path}: {ticket.summary}",
        )
        for path in ticket.reference_paths()
    ]
    return Plan(
        version=1, summary=ticket.summary, files=files, test_plan=["python -m pytest -q"],
        risks=[], markdown="",
    )  # fmt: skip


def reference_input(ticket: Ticket, repo: Path) -> ImplementationInput:
    """The loop's input for the ticket's repository at `repo`, planned on the reference."""
    requirements = Requirements(
        requirements=[ticket.summary],
        acceptance_criteria=list(ticket.acceptance_criteria),
        answers=[ticket.answers.strip()] if ticket.answers.strip() else [],
    )
    return ImplementationInput(
        repo_dir=repo, ticket=ticket_context(ticket), plan=reference_plan(ticket, repo),
        requirements=requirements,
    )  # fmt: skip
