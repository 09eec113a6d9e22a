"""What the tester decided about a revision: one value each router matches on.

Kept and Salvaged go to QA's review; Discarded and Redo go straight back to the supervisor;
Stalled goes back to the supervisor (warmer) until revisions in a row changed nothing.
`held` names the files a tested revision ran without (they did not compile or import), and why.
"""

from dataclasses import dataclass, field

from graphs.schemas import FailedTest


@dataclass(frozen=True)
class Kept:
    """The revision is the best so far (or no test command ran): QA reviews it."""

    held: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Salvaged:
    """The revision broke tests, but its code without the test files it rewrote did not."""

    dropped: list[str]
    held: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Discarded:
    """The revision was worse than the best: its files went back to the best revision's."""

    revision: int
    regression: str  # why it was worse
    # Its failures of tests that pass in the best revision (its workers are shown why).
    broken: list[FailedTest] = field(default_factory=list)
    held: dict[str, str] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        """The sentence the workers are told."""
        return f"Revision {self.revision} was discarded: {self.regression}."


@dataclass(frozen=True)
class Redo:
    """Files that do not compile or import, sent straight back to their workers, with the error."""

    errors: dict[str, str]


Tested = Kept | Salvaged | Discarded | Redo


@dataclass(frozen=True)
class Stalled:
    """The revision changed nothing: the `stalls`-th in a row.

    `last` is the outcome of the last revision that changed something (None when none did):
    the next revision is chosen and told as it would have been after that one.
    """

    stalls: int
    last: Tested | None = None


RevisionOutcome = Tested | Stalled


def last_tested(outcome: RevisionOutcome | None) -> Tested | None:
    """The outcome of the last revision that changed something."""
    return outcome.last if isinstance(outcome, Stalled) else outcome


def held_files(outcome: RevisionOutcome | None) -> dict[str, str]:
    """The files the last tested revision ran without, and why."""
    match last_tested(outcome):
        case Kept(held=held) | Salvaged(held=held) | Discarded(held=held):
            return held
        case _:
            return {}
