"""The benchmark's tickets: each a repository, a ticket, answers, hidden tests and a reference.

A question (kind "question") needs no code change: it has the answer a good reply gives in
place of a reference, and its hidden tests pin the behaviour the answer explains.
"""

import re
import shutil
import tomllib
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from bench.quality.realcode.layout import Manifest

TICKETS_DIR = Path(__file__).resolve().parent / "tickets"
HIDDEN_DIR = "tests_hidden"
QUESTION = "question"
_KEY = re.compile(r"^[A-Z][A-Z0-9]+-\d+$")


class TicketError(ValueError):
    """A benchmark ticket directory that is incomplete or malformed."""


class Ticket(BaseModel):
    """One benchmark ticket as its `ticket.toml` describes it, and where its parts are."""

    name: str
    key: str
    kind: str
    summary: str
    description: str
    acceptance_criteria: list[str] = Field(min_length=1)
    answers: str
    answer: str = ""  # a question's reply, for people reading the results
    # A question's rubric: each fact a list of alternative phrases, all facts in the reply.
    answer_facts: list[list[str]] = Field(default_factory=list)
    source: str = ""  # the real project a generated ticket comes from (bench/quality/realcode)
    generated: Manifest | None = None
    root: Path

    @property
    def needs_change(self) -> bool:
        """Whether resolving the ticket takes a code change (a question takes none)."""
        return self.kind != QUESTION

    @property
    def project(self) -> str:
        """The Jira project of the key."""
        return self.key.split("-", 1)[0]

    @property
    def repo_dir(self) -> Path:
        """The repository as the agent gets it."""
        return self.root / "repo"

    @property
    def hidden_dir(self) -> Path:
        """The tests that decide success, never shown to the agent."""
        return self.root / "hidden"

    @property
    def reference_dir(self) -> Path:
        """Files of a correct solution, by their path in the repository."""
        return self.root / "reference"

    def source_size(self) -> tuple[int, int]:
        """Lines and characters of the repository's Python modules, its tests left out."""
        modules = [
            p for p in self.repo_dir.rglob("*.py")
            if "tests" not in p.relative_to(self.repo_dir).parts
            and not p.name.startswith("test_") and not p.name.endswith("_test.py")
        ]  # fmt: skip
        texts = [p.read_text(encoding="utf-8", errors="replace") for p in modules]
        return sum(len(t.splitlines()) for t in texts), sum(len(t) for t in texts)

    def reference_paths(self) -> list[str]:
        """The repository paths of the Python files the reference changes, sorted."""
        return sorted(
            str(p.relative_to(self.reference_dir)) for p in self.reference_dir.rglob("*.py")
        )

    def issue(self) -> dict[str, object]:
        """The ticket as a Jira emulator seed issue."""
        criteria = "\n".join(f"- {c}" for c in self.acceptance_criteria)
        return {
            "key": self.key,
            "project": self.project,
            "issuetype": "Bug" if self.kind == "bug" else "Story",
            "summary": self.summary,
            "description": self.description.strip(),
            "custom_fields": {"customfield_10035": criteria},
            "labels": ["quality-bench"],
            "status": "To Do",
            "reporter": "alice-1",
        }


def load_ticket(root: Path) -> Ticket:
    """The ticket in `root`, checked for every part the benchmark needs."""
    spec = root / "ticket.toml"
    try:
        data = tomllib.loads(spec.read_text())
        ticket = Ticket(name=root.name, root=root, **data)
    except (OSError, tomllib.TOMLDecodeError, ValidationError, TypeError) as err:
        raise TicketError(f"{spec}: {err}") from err
    if not _KEY.match(ticket.key):
        raise TicketError(f"{spec}: key {ticket.key!r} is not like ABC-1")
    parts = [ticket.repo_dir, ticket.hidden_dir]
    if ticket.needs_change:
        parts.append(ticket.reference_dir)
    elif not ticket.answer.strip() or ticket.reference_dir.exists():
        raise TicketError(f"{spec}: a question has an `answer` and no reference/ (no change)")
    if any(not fact or not all(p.strip() for p in fact) for fact in ticket.answer_facts):
        raise TicketError(f"{spec}: each of `answer_facts` is a list of non-empty phrases")
    for part in parts:
        if not part.is_dir() or not any(part.iterdir()):
            raise TicketError(f"{root.name}: {part.name}/ is missing or empty")
    return ticket


def load_tickets(names: list[str] | None = None, tickets_dir: Path = TICKETS_DIR) -> list[Ticket]:
    """Every ticket (or the named ones), sorted by name; unknown names are an error."""
    roots = sorted(p for p in tickets_dir.iterdir() if (p / "ticket.toml").is_file())
    if names:
        known = {p.name: p for p in roots}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise TicketError(f"unknown tickets {unknown}; known: {', '.join(sorted(known))}")
        roots = [known[n] for n in names]
    tickets = [load_ticket(root) for root in roots]
    keys = [t.key for t in tickets]
    if len(set(keys)) != len(keys):
        raise TicketError(f"ticket keys repeat: {keys}")
    return tickets


def copy_tree(source: Path, target: Path) -> None:
    """Copy the files of `source` over `target`, keeping what is not overwritten."""
    for path in sorted(source.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            dest = target / path.relative_to(source)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)


def add_hidden_tests(ticket: Ticket, checkout: Path) -> Path:
    """Copy the hidden tests into the checkout (for scoring only); returns their directory."""
    target = checkout / HIDDEN_DIR
    shutil.rmtree(target, ignore_errors=True)
    copy_tree(ticket.hidden_dir, target)
    return target
