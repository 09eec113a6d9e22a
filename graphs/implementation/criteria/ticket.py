"""The acceptance criteria a ticket states, and where their tests go."""

import re

from graphs.schemas import LIST_MARKER, Requirements, TicketContext

MAX_CRITERIA = 15


def criteria_path(key: str) -> str:
    """Where the acceptance tests of a ticket go."""
    return f"tests/test_{re.sub(r'[^a-z0-9]+', '_', key.lower())}_acceptance.py"


def disputed_path(key: str) -> str:
    """Where a ticket's disputed checks are run, beside its acceptance tests."""
    return criteria_path(key).replace("_acceptance.py", "_disputed.py")


def ticket_criteria(text: str | None) -> list[str]:
    """The acceptance criteria a ticket spells: its bullet items, else its non-empty lines."""
    lines = [line for line in (text or "").splitlines() if line.strip()]
    if not any(LIST_MARKER.match(line) for line in lines):
        return [line.strip() for line in lines]
    items: list[str] = []
    for line in lines:
        if LIST_MARKER.match(line):
            items.append(LIST_MARKER.sub("", line).strip())
        elif items:  # a bullet's wrapped continuation
            items[-1] = f"{items[-1]} {line.strip()}"
        elif not line.rstrip().endswith(":"):  # not an introduction such as "Criteria:"
            items.append(line.strip())
    return [item for item in items if item]


def acceptance_criteria(ticket: TicketContext, requirements: Requirements | None) -> list[str]:
    """The criteria to account for: the ticket's own as written, else the refined ones."""
    own = ticket_criteria(ticket.acceptance_criteria)
    refined = [] if requirements is None else requirements.acceptance_criteria
    return (own or refined)[:MAX_CRITERIA]
