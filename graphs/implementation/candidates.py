"""The first revision chosen among several bare drafts by the tests they pass.

What a small model writes first is what it writes: revisions after a draft seldom do better
than the draft (bench/quality/HISTORY.md), while drafts sampled anew differ. Where the run has
time, the first revision of the files short enough to be written whole is drafted `count`
times (the first at the model's own temperature, the others sampled warmer, each sending with
a seed of its own), every draft is tested with the acceptance tests, and the one the tests
prefer becomes the first revision: the repository's own tests passed first, then the
acceptance tests, then the disputed checks (said to hold already, they fail on the original
code: run beside the drafts, never kept); among equals, the version most drafts agree on (by
syntax tree), then the earliest.
"""

import ast
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from graphs.implementation.budget import Budget
from graphs.implementation.criteria.ticket import criteria_path
from graphs.implementation.journal import Journal, WorkerOutcome
from graphs.implementation.revision import current_changes, read_current
from graphs.implementation.state import Assignment, ImplementationState, Tester, WorkerState
from graphs.implementation.supervisor import first_paths
from graphs.implementation.tester.best import own_tests, rank
from graphs.implementation.tester.gate import syntax_errors
from graphs.implementation.worker.draft import drafted
from graphs.implementation.worker.node import write_file
from graphs.implementation.worker.retries import warmer
from graphs.node_types import AsyncNode
from graphs.offline import is_offline
from graphs.schemas import FileChange, TestReport

MAX_CANDIDATES = 8


@dataclass
class Candidate:
    """One draft of the first revision's files: what each worker wrote, and how it tested."""

    number: int
    outcomes: list[WorkerOutcome]
    report: TestReport | None = None
    # Why it could not be tested: a file that does not compile or import ("" when tested).
    error: str = ""
    # Whether it changes code, not only comments, docstrings or layout.
    changes_code: bool = True

    @property
    def changes(self) -> list[FileChange]:
        """The files this draft changes."""
        return [o.change for o in self.outcomes if o.change is not None]

    def form(self) -> tuple[str, ...]:
        """What the draft is, layout and comments aside: equal for drafts that agree."""
        return tuple(normal_form(c.path, c.content) for c in self.changes)

    def tokens(self) -> int:
        """The tokens its calls took."""
        return sum(o.tokens for o in self.outcomes)


def normal_form(path: str, content: str) -> str:
    """A Python file's syntax tree without its docstrings (its text when it does not parse,
    or for other files)."""
    if path.endswith(".py"):
        try:
            tree = ast.parse(content)
        except (SyntaxError, ValueError):
            return content.strip()
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and is_docstring(body[0]):
                node.body = body[1:]  # type: ignore[attr-defined]
        return ast.dump(tree)
    return content.strip()


def is_docstring(statement: ast.stmt) -> bool:
    """Whether a statement is a bare string: a docstring where it opens a body."""
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def changes_code(state: ImplementationState, changes: list[FileChange]) -> bool:
    """Whether any of the files changes more than comments, docstrings or layout."""
    return any(
        c.delete
        or normal_form(c.path, c.content)
        != normal_form(c.path, read_current(state["repo_dir"] / c.path) or "")
        for c in changes
    )


def preference(
    candidate: Candidate, own: list[str], votes: Counter[tuple[str, ...]], disputed: str = ""
) -> tuple:
    """How much the tests prefer a draft (higher first): one that changes code (more than
    comments, docstrings or layout) and compiles and imports, then the tests as the loop
    ranks them (the disputed checks' file `disputed` aside), then the disputed checks passed,
    then agreement, then order."""
    report = candidate.report
    if not candidate.changes or not candidate.changes_code or report is None or candidate.error:
        return (0, (0, 0, 0), 0, 0, -candidate.number)
    kept = [t for t in report.passed_tests if not (disputed and t.startswith(disputed))]
    counted = report.model_copy(update={"passed_tests": kept})
    aside = passed_in(report, disputed)
    return (1, rank(counted, own), aside, votes[candidate.form()], -candidate.number)


def passed_in(report: TestReport, path: str) -> int:
    """How many of the run's passing tests are in the test file `path` (0 for no file)."""
    return sum(bool(path) and t.startswith(path) for t in report.passed_tests)


def drafted_assignments(state: ImplementationState) -> list[Assignment]:
    """The first revision's files that a bare draft writes: short enough to be written whole."""
    paths = set(first_paths(state))
    chosen: list[Assignment] = []
    for assignment in state.get("assignments", []):
        planned = assignment["file"]
        current = read_current(state["repo_dir"] / planned.path)
        if planned.path in paths and planned.action != "delete" and current is not None:
            if drafted(planned.path, current):
                chosen.append(assignment)
    return chosen


def worker_state(state: ImplementationState, assignment: Assignment) -> WorkerState:
    """What the first revision's worker of this file would be sent."""
    return cast(
        WorkerState,
        {
            **state,
            "assignment": assignment,
            "revision": 1,
            "current": None,
            "feedback": "",
        },
    )


def first_error(errors: dict[str, str]) -> str:
    """The first file that does not compile or import, and why, for a note ("" for none)."""
    path, error = next(iter(errors.items()), ("", ""))
    return f"{path}: {error[:160]}" if path else ""


def summary(
    chosen: Candidate, tried: list[Candidate], disputed: str = "", acceptance: str = ""
) -> str:
    """The note that says which draft became the first revision, and how the others tested
    (the acceptance tests, in the file `acceptance`, and the disputed checks, in the file
    `disputed`, counted apart)."""

    def said(candidate: Candidate) -> str:
        if not candidate.changes:
            return "unchanged"
        if not candidate.changes_code:
            return "comments or docstrings only"
        if candidate.error or candidate.report is None:
            return f"untested, {candidate.error or 'no test ran'}"
        report = candidate.report
        aside = passed_in(report, disputed)
        of_them = f" ({passed_in(report, acceptance)} acceptance)" if acceptance else ""
        checks = f", {aside} disputed checks" if disputed else ""
        return f"{len(report.passed_tests) - aside} tests passed{of_them}{checks}"

    kept = f"first revision: draft {chosen.number + 1} of {len(tried)} kept ({said(chosen)})"
    return kept + "".join(f"; draft {c.number + 1}: {said(c)}" for c in tried if c is not chosen)


def make_candidates(
    model: BaseChatModel,
    tools: Sequence[BaseTool],
    tester: Tester | None,
    journal: Journal,
    count: int,
    budget: Budget,
) -> AsyncNode[ImplementationState]:
    """The node that drafts the first revision `count` times and records the draft the tests
    prefer as the first revision's workers (which then replay it); with one draft, no tester,
    the offline model, or a first revision already under way, it does nothing."""

    async def candidates(state: ImplementationState) -> dict[str, Any]:
        if count < 2 or tester is None or is_offline(model):
            return {}
        if any(w.revision >= 1 for w in journal.progress.workers):
            return {}  # resumed past this stage: the first revision's workers are recorded
        assignments = drafted_assignments(state)
        if not assignments:
            return {}
        baseline = journal.tests(0)
        if baseline is None:
            baseline = await tester([])
            journal.record_tests(0, baseline)
        own = own_tests(baseline)
        acceptance = current_changes(state)
        disputed = state.get("disputed")
        beside = [disputed] if disputed is not None else []
        tried: list[Candidate] = []
        for number in range(min(count, MAX_CANDIDATES)):
            if number and budget.spent():
                break
            budget.revision_began()  # a draft is paced like a revision
            sampler = warmer(model) if number else model
            outcomes = []
            for assignment in assignments:
                journal.start("worker", 1, assignment["file"].path)
                given = worker_state(state, assignment)
                outcomes.append(await write_file(sampler, tools, given, draft=True))
            candidate = Candidate(number, outcomes)
            candidate.changes_code = changes_code(state, candidate.changes)
            errors = syntax_errors(candidate.changes)
            if candidate.changes and not errors:
                journal.start("tests", 1)
                candidate.report = await tester([*acceptance, *candidate.changes, *beside])
                errors = candidate.report.import_errors
            candidate.error = first_error(errors)
            tried.append(candidate)
        votes = Counter(c.form() for c in tried if c.changes)
        aside = disputed.path if disputed is not None else ""
        chosen = max(tried, key=lambda c: preference(c, own, votes, aside))
        spent = sum(c.tokens() for c in tried) - chosen.tokens()
        tests = criteria_path(state["ticket"].key)
        note = summary(
            chosen, tried, aside, tests if any(c.path == tests for c in acceptance) else ""
        )
        if chosen.report is not None and not beside and len(assignments) == len(first_paths(state)):
            journal.record_tests(1, chosen.report)  # what the first revision tests is this draft
        for index, outcome in enumerate(chosen.outcomes):
            extra = spent if index == 0 else 0
            told = f"{outcome.note} (draft {chosen.number + 1} of {len(tried)})"
            journal.record_worker(
                outcome.model_copy(update={"tokens": outcome.tokens + extra, "note": told})
            )
        return {"notes": [note]}

    return candidates
