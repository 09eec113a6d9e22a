"""Scoring a checkout: the repository's own tests (restored as shipped) and the hidden tests,
counted by pytest, and the files the change touched; a question is resolved only when it
touched none and its posted answer holds every fact of its rubric."""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pydantic import BaseModel, Field

from bench.quality.answers import missing_facts
from bench.quality.tickets import HIDDEN_DIR, Ticket, add_hidden_tests, copy_tree
from integrations.workspace.junit import CaseResult, read_junit

TEST_TIMEOUT_S = 120.0
OUTPUT_CHARS = 4000
# The tickets' repositories need no pytest plugin; without the installed ones pytest starts in
# 0.2 s, not 0.9 s, and a score does not depend on what else the benchmark's Python has.
PYTEST_ENV = {
    "PATH": "/usr/bin:/bin",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
}
# Not the repository's files: git's, the product's plan notes, Python's and pytest's caches.
NOT_CHANGES = (".git", ".ticketsmith", "__pycache__", ".pytest_cache")


class Run(BaseModel):
    """One pytest run: its exit code, the end of its output and its cases."""

    exit_code: int
    output: str
    cases: list[CaseResult]


class Count(BaseModel):
    """Passed and collected tests of one group of a run."""

    passed: int
    total: int
    output: str

    @classmethod
    def of(cls, cases: list[CaseResult], run: Run, missing: int) -> "Count":
        """The count of some cases of a run; `missing` test files count as one failure each."""
        passed = sum(c.outcome == "passed" for c in cases)
        total = len(cases) + missing
        if run.exit_code not in (0, 1):  # collection or usage error: nothing is trusted
            passed = 0
            total = max(total, 1)
        return cls(passed=passed, total=total, output=run.output)

    @property
    def green(self) -> bool:
        """Every collected test passed (and at least one ran)."""
        return self.total > 0 and self.passed == self.total


def run_pytest(checkout: Path, *args: str, timeout_s: float = TEST_TIMEOUT_S) -> Run:
    """Run pytest in the checkout and read its junit report."""
    with tempfile.TemporaryDirectory(prefix="quality-junit-") as scratch:
        report = Path(scratch) / "junit.xml"
        argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        argv += [
            f"--junitxml={report}",
            "-o",
            "junit_family=xunit1",
            "--continue-on-collection-errors",
        ]
        argv += args
        try:
            done = subprocess.run(
                argv,
                cwd=checkout,
                capture_output=True,
                text=True,
                timeout=timeout_s,
                env=PYTEST_ENV,
            )
            exit_code, output = done.returncode, done.stdout + done.stderr
        except subprocess.TimeoutExpired:
            exit_code, output = -1, f"pytest timed out after {timeout_s:.0f}s"
        cases = read_junit(report)
    return Run(exit_code=exit_code, output=output[-OUTPUT_CHARS:], cases=cases)


class Score(BaseModel):
    """A checkout measured against a ticket: its own tests, the hidden ones, the files changed."""

    existing: Count
    hidden: Count
    # Files of the repository added, changed or deleted (results before it was kept: unknown).
    changed: list[str] = Field(default_factory=list)
    needs_change: bool = True
    # A question's posted answer against its rubric: True when it holds every fact, False when
    # some are missing, None when unchecked (no rubric, or results from before the check).
    answer_holds: bool | None = None
    answer_missing: list[str] = Field(default_factory=list)

    @property
    def scored(self) -> bool:
        """Whether the score counts: a question's only once its answer was checked."""
        return self.needs_change or self.answer_holds is not None

    @property
    def resolved(self) -> bool:
        """Every hidden test and every test of the repository passes; for a question, the
        repository is also left as it was (its answer is words, not code) and the answer it
        posted holds every fact of the rubric."""
        green = self.hidden.green and self.existing.green
        if self.needs_change:
            return green
        return green and not self.changed and self.answer_holds is True


def check_answer(score: Score, ticket: Ticket, answer: str) -> Score:
    """The score with a question's posted answer checked against its rubric (unchecked
    without one)."""
    if ticket.needs_change or not ticket.answer_facts:
        return score
    missing = missing_facts(ticket.answer_facts, answer)
    return score.model_copy(update={"answer_holds": not missing, "answer_missing": missing})


def is_test_file(relative: Path) -> bool:
    """A file of the repository's tests: under a tests folder, a test module or a conftest."""
    name = relative.name
    return (
        bool({"tests", "test"} & set(relative.parts[:-1]))
        or name == "conftest.py"
        or (name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py")))
    )


def shipped_tests(ticket: Ticket) -> list[str]:
    """Every file of the repository's tests as the ticket ships them (data files included)."""
    if ticket.generated is not None and ticket.generated.tests:
        return ticket.generated.tests
    return sorted(
        str(p.relative_to(ticket.repo_dir))
        for p in ticket.repo_dir.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and is_test_file(p.relative_to(ticket.repo_dir))
    )


def own_tests(ticket: Ticket) -> list[str]:
    """The repository's own test modules, as the ticket ships them."""
    return [
        path
        for path in shipped_tests(ticket)
        if (Path(path).name.startswith("test") and path.endswith(".py"))
        or path.endswith("_test.py")
    ]


def restore_tests(ticket: Ticket, checkout: Path) -> None:
    """Put the repository's test files back as shipped: a test the agent edited, weakened or
    deleted is not believed."""
    for path in shipped_tests(ticket):
        target = checkout / path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ticket.repo_dir / path, target)


def repository_files(root: Path) -> dict[str, bytes]:
    """The repository's files by path, without git's, the product's notes or caches."""
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not set(path.relative_to(root).parts) & set(NOT_CHANGES)
    }


def changed_files(ticket: Ticket, checkout: Path) -> list[str]:
    """The files the checkout adds, changes or deletes against the repository as shipped."""
    before, after = repository_files(ticket.repo_dir), repository_files(checkout)
    return sorted(
        path for path in before.keys() | after.keys() if before.get(path) != after.get(path)
    )


def score_checkout(ticket: Ticket, checkout: Path) -> Score:
    """Score a checkout in place, in one pytest run: the repository's tests restored as
    shipped, the hidden tests added."""
    changed = changed_files(ticket, checkout)
    restore_tests(ticket, checkout)
    add_hidden_tests(ticket, checkout)
    run = run_pytest(checkout, *own_tests(ticket), HIDDEN_DIR)
    hidden = [c for c in run.cases if c.file.startswith(f"{HIDDEN_DIR}/")]
    existing = [c for c in run.cases if c not in hidden]
    return Score(
        existing=Count.of(existing, run, 0),
        hidden=Count.of(hidden, run, 0),
        changed=changed,
        needs_change=ticket.needs_change,
    )


def score_unchanged(ticket: Ticket, scratch: Path) -> Score:
    """Score the repository as shipped: a question answered without pushing a branch."""
    checkout = scratch / "unchanged"
    copy_tree(ticket.repo_dir, checkout)
    return score_checkout(ticket, checkout)
