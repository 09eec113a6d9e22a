"""A regressing revision kept without the test files it rewrote: its code may be good."""

from pydantic import BaseModel

from graphs.implementation.journal import Journal
from graphs.implementation.revision import is_test_file
from graphs.implementation.state import Tester
from graphs.implementation.tester.best import Standing, regression
from graphs.schemas import FileChange, TestReport

CODE_PART = "code"


class Salvaged(BaseModel):
    """The code of a revision kept without its test files, and its test run."""

    kept: list[FileChange]
    dropped: list[str]
    tests: TestReport


async def salvage(
    tester: Tester,
    journal: Journal,
    revision: int,
    best: Standing,
    changes: list[FileChange],
    kept_tests: frozenset[str] = frozenset(),
) -> Salvaged | None:
    """A regressing revision's code with the test files of the best revision, if no worse;
    `kept_tests` (the acceptance tests, the change's specification) are never left out.

    A small model often rewrites a test file badly (a wrong import, a dropped test) along
    with good code; discarding both loses the code. One test run, no model call.
    """
    new_tests = [
        c
        for c in changes
        if is_test_file(c.path) and c.path not in kept_tests and best.files.get(c.path) != c
    ]
    rest = [c for c in changes if c not in new_tests]
    if not new_tests or all(best.files.get(c.path) == c for c in rest):
        return None  # no new test file to leave out, or what remains is the best revision
    dropped = [c.path for c in new_tests]
    kept = [*rest, *(best.files[p] for p in dropped if p in best.files)]
    report = journal.tests(revision, CODE_PART)
    if report is None:
        journal.start("tests", revision)
        report = await tester(kept)
        journal.record_tests(revision, report, CODE_PART)
    if report.import_errors or regression(best, report):
        return None
    return Salvaged(kept=kept, dropped=dropped, tests=report)
