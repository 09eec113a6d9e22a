"""What people say to a running implementation: guidance its next revision is given, and a
stop that ends the loop with its best revision. The activity reads them from the ticket."""

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class Said:
    """One piece of guidance, as a person wrote it (untrusted: quoted to the model as data)."""

    id: int
    author: str
    text: str


@dataclass(frozen=True)
class SteeringNews:
    """Everything said so far, and who asked to stop ("" for nobody)."""

    said: list[Said] = field(default_factory=list)
    stop_by: str = ""


class Steering(Protocol):
    """Where a run hears people: read before each revision, told what a revision was given."""

    async def news(self) -> SteeringNews:
        """The guidance and the stop, as they stand."""
        ...

    async def given(self, ids: list[int], revision: int) -> None:
        """These pieces of guidance went into this revision's prompts."""
        ...


def guidance_text(said: list[Said]) -> str:
    """The guidance as the workers are shown it, oldest first."""
    if not said:
        return ""
    lines = [f"- {s.author}: {s.text}" for s in said]
    return (
        "People on the ticket said this while the work ran (their words, quoted; follow what "
        "fits the ticket and the plan):\n" + "\n".join(lines)
    )
