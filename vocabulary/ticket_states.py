"""Where a ticket is (its phase) and what it is doing (its status): plain enums, so that the
command line reads a status without building the pydantic models."""

from enum import StrEnum


class Phase(StrEnum):
    """The three phases of a ticket, plus where it ends."""

    REFINEMENT = "refinement"
    PLANNING = "planning"
    IMPLEMENTATION = "implementation"
    REVIEW = "review"
    DONE = "done"


class Status(StrEnum):
    """What a ticket is doing right now."""

    RUNNING = "running"
    AWAITING_ANSWERS = "awaiting_answers"
    AWAITING_APPROVAL = "awaiting_approval"
    AWAITING_BUDGET = "awaiting_budget"
    AWAITING_REVIEW = "awaiting_review"
    COMPLETED = "completed"
    MERGED = "merged"
    CLOSED = "closed"
    FAILED = "failed"
    CANCELLED = "cancelled"
    EXPIRED = "expired"
