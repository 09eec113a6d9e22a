"""The lines `starter.py status` shows about a ticket's pull request: checks and rounds."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: `list` imports this module through cli/render.py
    from workflows.status_messages import TicketStatus


def review_lines(current: "TicketStatus") -> list[str]:
    """The pull request's checks and rounds, for `starter.py status`."""
    view = current.pull_request
    if view is None:
        return []
    lines = [f"  pull request #{view.number}: {view.state}, head {(view.head_sha or '?')[:7]}"]
    for check in view.checks:
        lines.append(f"    check {check.name}: {check.conclusion}")
    lines.append(f"  rounds: {view.ci_rounds} CI fix, {view.review_rounds} review")
    for done in view.rounds:
        lines.append(f"    {done.kind} round {done.number}: {done.trigger} -> {done.outcome}")
    if view.waiting_for:
        lines.append(f"  waiting for: {view.waiting_for}")
    return lines
