"""How a ticket's closed run ended, from what the server keeps: the phase and status it last
recorded, and the words for a run that did not complete. Shared by the HTTP and gRPC reads."""

from typing import Any

from vocabulary.ticket_states import Phase, Status

# The statuses a ticket ends with.
ENDED = {
    Status.COMPLETED,
    Status.MERGED,
    Status.CLOSED,
    Status.FAILED,
    Status.CANCELLED,
    Status.EXPIRED,
}
# How a closed run ended when the workflow could not record it itself (terminated, timed out),
# by the run state's name; any other state counts as failed.
ENDED_AS = {"COMPLETED": Status.COMPLETED, "CANCELED": Status.CANCELLED}


def recorded(phase: Any, status: Any) -> tuple[Phase, Status]:
    """The phase and status the workflow last wrote to its search attributes."""
    return (
        Phase(phase) if phase in set(Phase) else Phase.REFINEMENT,
        Status(status) if status in set(Status) else Status.RUNNING,
    )


def ended_status(run_state: str, status: Status) -> Status:
    """How a closed run ended: as it recorded, or else as its run state says."""
    return status if status in ENDED else ENDED_AS.get(run_state, Status.FAILED)


def ended_message(status: Status, why: str) -> str:
    """Why a run that did not complete ended, as the workflow itself words it."""
    if status == Status.CANCELLED:
        return "Work on this ticket was cancelled."
    return f"Work on this ticket stopped. {why}"
