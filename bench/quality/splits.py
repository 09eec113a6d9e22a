"""The benchmark's dev and test splits (`bench/quality/splits.toml`): tickets split by their
source project, so no module is seen in both; the test split is only ever reported as a rate."""

import tomllib
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from bench.quality.tickets import Ticket, TicketError

SPLITS_FILE = Path(__file__).resolve().parent / "splits.toml"
DEV, TEST = "dev", "test"
SPLITS = (DEV, TEST)
MIN_TEST_TICKETS = 30


class Split(BaseModel):
    """One split: the real projects whose tickets it holds, and hand-written tickets by name."""

    projects: list[str] = Field(default_factory=list)
    tickets: list[str] = Field(default_factory=list)

    def holds(self, ticket: Ticket) -> bool:
        """Whether the ticket is in this split."""
        return ticket.source in self.projects if ticket.source else ticket.name in self.tickets


class Splits(BaseModel):
    """The dev and the test split."""

    dev: Split
    test: Split

    def named(self, name: str) -> Split:
        """The split of that name."""
        if name not in SPLITS:
            raise TicketError(f"unknown split {name!r}; the splits are {', '.join(SPLITS)}")
        return self.dev if name == DEV else self.test

    def splits_of(self, ticket: Ticket) -> list[str]:
        """The splits that hold the ticket (exactly one, when the file is sound)."""
        return [name for name in SPLITS if self.named(name).holds(ticket)]

    def tickets_of(self, name: str, tickets: list[Ticket]) -> list[Ticket]:
        """The tickets of a split, in their order."""
        split = self.named(name)
        return [t for t in tickets if split.holds(t)]

    def is_test(self, names: list[str], tickets: list[Ticket]) -> bool:
        """Whether the named tickets are all of the test split (a run of it)."""
        test = {t.name for t in self.tickets_of(TEST, tickets)}
        return bool(names) and set(names) <= test


def load_splits(path: Path = SPLITS_FILE) -> Splits:
    """The splits file."""
    try:
        return Splits.model_validate(tomllib.loads(path.read_text()))
    except (OSError, tomllib.TOMLDecodeError, ValidationError) as err:
        raise TicketError(f"{path}: {err}") from err


def problems(splits: Splits, tickets: list[Ticket]) -> list[str]:
    """What is wrong with the splits: a project or hand-written ticket in no split or in both,
    names of tickets or projects that do not exist."""
    found = []
    projects = sorted({t.source for t in tickets if t.source})
    names = [t.name for t in tickets if not t.source]
    for kind, listed, attribute in (
        ("project", projects, "projects"),
        ("ticket", names, "tickets"),
    ):
        held = {n: [s for s in SPLITS if n in getattr(splits.named(s), attribute)] for n in listed}
        if nowhere := [n for n, where in held.items() if not where]:
            found.append(f"{kind}s in no split: {nowhere}: list each under [dev] or [test] "
                         f"`{attribute}` in {SPLITS_FILE.name}")  # fmt: skip
        if both := [n for n, where in held.items() if len(where) > 1]:
            found.append(f"{kind}s in both splits: {both}: keep each in one")
        for name in SPLITS:
            unknown = sorted(set(getattr(splits.named(name), attribute)) - set(listed))
            if unknown:
                found.append(f"[{name}] lists {kind}s the bench does not have: {unknown}")
    return found
