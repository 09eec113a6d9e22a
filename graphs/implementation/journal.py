"""The record of completed steps of an implementation run, so a resumed run skips them.

Nodes ask the journal before doing a step and record the step when done; whoever runs the
graph persists the journal's progress (as heartbeat details, say) and hands it back on resume.
"""

from collections.abc import Callable

from pydantic import BaseModel, Field

from graphs.implementation.state import Review
from graphs.schemas import FailedTest, FileChange, TestReport

StepStarted = Callable[[str, int, str | None], None]  # (kind, revision, path) of a step begun


class WorkerOutcome(BaseModel):
    """What one worker did for one file in one revision."""

    revision: int
    path: str
    change: FileChange | None = None
    note: str
    tokens: int = 0
    # The acceptance tests' failures on the original code (the criteria's outcome only).
    failures: list[FailedTest] = Field(default_factory=list)
    # Checks said to hold already that fail on the original code (the criteria's outcome
    # only): never acceptance tests, only a preference among drafts.
    disputed: FileChange | None = None


class TestsOutcome(BaseModel):
    """The test run of one revision."""

    __test__ = False  # not a pytest test class

    revision: int
    report: TestReport
    # "" for the whole revision; a salvaged half of it ("code", "tests") otherwise.
    part: str = ""


class ReviewOutcome(BaseModel):
    """The QA review of one revision."""

    revision: int
    review: Review
    tokens: int = 0


class Progress(BaseModel):
    """Completed steps of one implementation run, in the order they completed."""

    workers: list[WorkerOutcome] = Field(default_factory=list)
    tests: list[TestsOutcome] = Field(default_factory=list)
    reviews: list[ReviewOutcome] = Field(default_factory=list)

    @property
    def steps(self) -> int:
        """How many steps completed."""
        return len(self.workers) + len(self.tests) + len(self.reviews)


class Journal:
    """Completed steps, looked up by revision (and path); every record is reported at once."""

    def __init__(
        self,
        progress: Progress | None = None,
        on_record: Callable[[Progress], None] | None = None,
        on_start: StepStarted | None = None,
    ) -> None:
        self.progress = progress.model_copy(deep=True) if progress else Progress()
        self._on_record = on_record
        self._on_start = on_start
        self.replayed = 0

    def start(self, kind: str, revision: int, path: str | None = None) -> None:
        """Say that a step is under way: a `worker` for a path, the `tests` or the `review`."""
        if self._on_start is not None:
            self._on_start(kind, revision, path)

    def worker(self, revision: int, path: str) -> WorkerOutcome | None:
        """The recorded outcome of this file's worker in this revision, if any."""
        found = next(
            (w for w in self.progress.workers if (w.revision, w.path) == (revision, path)), None
        )
        self.replayed += found is not None
        return found

    def tried(self, path: str, before: int) -> set[str]:
        """The contents this file's workers wrote in revisions before `before`."""
        return {
            w.change.content
            for w in self.progress.workers
            if w.path == path and w.revision < before and w.change is not None
        }

    def tests(self, revision: int, part: str = "") -> TestReport | None:
        """The recorded test run of this revision (or of a part of it), if any."""
        found = next(
            (t.report for t in self.progress.tests if (t.revision, t.part) == (revision, part)),
            None,
        )
        self.replayed += found is not None
        return found

    def review(self, revision: int) -> ReviewOutcome | None:
        """The recorded QA review of this revision, if any."""
        found = next((r for r in self.progress.reviews if r.revision == revision), None)
        self.replayed += found is not None
        return found

    def record_worker(self, outcome: WorkerOutcome) -> None:
        """Record a finished worker."""
        self.progress.workers.append(outcome)
        self._report()

    def record_tests(self, revision: int, report: TestReport, part: str = "") -> None:
        """Record a finished test run."""
        self.progress.tests.append(TestsOutcome(revision=revision, report=report, part=part))
        self._report()

    def record_review(self, outcome: ReviewOutcome) -> None:
        """Record a finished review."""
        self.progress.reviews.append(outcome)
        self._report()

    def _report(self) -> None:
        if self._on_record is not None:
            self._on_record(self.progress)
