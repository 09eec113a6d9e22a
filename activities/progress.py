"""The implementation activity's live progress, sent to the ticket's workflow as signals.

The graph says when a step begins and when it completes; the reporter keeps the latest picture
and signals it (`report_progress`) to the workflow that owns the ticket, at most once per
interval and only when it changed. Progress is for people: a signal that fails is logged and
dropped, never the activity's failure.
"""

import asyncio
import re

from temporalio import activity
from temporalio.client import Client

from graphs.implementation.journal import Progress
from graphs.progress import ImplementationProgress, TestCounts
from graphs.schemas import TestReport
from llm.structured import trim

MIN_INTERVAL_SECONDS = 1.0
VERDICT_CHARS = 200
# Attempts of the activity are numbered apart, so a retry's reports outrank the last attempt's.
ATTEMPT_STRIDE = 1_000_000
_COUNT = re.compile(r"(\d+) (passed|failed|errors?)\b")
_UNITTEST_RAN = re.compile(r"^Ran (\d+) tests?", re.MULTILINE)
_UNITTEST_FAILED = re.compile(r"FAILED \((?:failures=(\d+))?(?:, )?(?:errors=(\d+))?")

STAGES = {"worker": "writing files", "tests": "running the tests", "review": "QA review"}


def test_counts(report: TestReport) -> TestCounts:
    """Passed and failed counts from pytest's (or unittest's) summary in the test output."""
    counts = {"passed": 0, "failed": 0}
    for number, word in _COUNT.findall(report.output):
        counts["passed" if word == "passed" else "failed"] += int(number)
    if not any(counts.values()) and (ran := _UNITTEST_RAN.search(report.output)):
        failed = _UNITTEST_FAILED.search(report.output)
        counts["failed"] = sum(int(n or 0) for n in failed.groups()) if failed else 0
        counts["passed"] = int(ran[1]) - counts["failed"]
    return TestCounts(
        passed=report.passed,
        passed_count=counts["passed"],
        failed_count=counts["failed"],
        exit_code=report.exit_code,
    )


class ProgressReporter:
    """Keeps the implementation's progress and signals it to the ticket's workflow."""

    def __init__(
        self, workflow_id: str, max_revisions: int, interval: float = MIN_INTERVAL_SECONDS
    ) -> None:
        self._workflow_id = workflow_id
        self._interval = interval
        self._client = worker_client()
        attempt = activity.info().attempt if activity.in_activity() else 1
        self.progress = ImplementationProgress(
            sequence=attempt * ATTEMPT_STRIDE, max_revisions=max_revisions, stage="starting"
        )
        self._changed = asyncio.Event()
        self._sent = -1

    def started(self, kind: str, revision: int, path: str | None) -> None:
        """A step began: a worker on a file, the test run or the QA review."""
        p = self.progress
        if revision != p.revision:
            p.revision, p.writing = revision, []
        p.stage = STAGES.get(kind, kind)
        if kind == "worker" and path is not None and path not in p.writing:
            p.writing.append(path)
        elif kind != "worker":
            p.writing = []
        self._touch()

    def recorded(self, done: Progress) -> None:
        """A step completed: the files written, the last test run, the last review, tokens."""
        p = self.progress
        finished = {w.path for w in done.workers if w.revision == p.revision}
        p.writing = [path for path in p.writing if path not in finished]
        if done.tests:
            p.tests = test_counts(done.tests[-1].report)
        if done.reviews:
            review = done.reviews[-1].review
            verdict = "passed" if review.passed else "not passed"
            p.qa_verdict = trim(f"{verdict}: {' '.join(review.summary.split())}", VERDICT_CHARS)
        p.tokens = sum(w.tokens for w in done.workers) + sum(r.tokens for r in done.reviews)
        self._touch()

    def _touch(self) -> None:
        self.progress.sequence += 1
        self._changed.set()

    async def run(self) -> None:
        """Send the latest progress when it changed, at most once per interval, until cancelled."""
        if self._client is None:
            return
        while True:
            await self._changed.wait()
            self._changed.clear()
            await self.send()
            await asyncio.sleep(self._interval)

    async def send(self) -> None:
        """Signal the current progress now, unless it was already sent."""
        if self._client is None or self._sent == self.progress.sequence:
            return
        snapshot = self.progress.model_copy(deep=True)
        handle = self._client.get_workflow_handle(self._workflow_id)
        try:
            await handle.signal("report_progress", snapshot)
            self._sent = snapshot.sequence
        except Exception as err:  # progress is best effort; the work goes on regardless
            activity.logger.warning("could not report progress to %s: %s", self._workflow_id, err)


def worker_client() -> Client | None:
    """The worker's Temporal client, or None outside a worker (a unit test's activity)."""
    try:
        return activity.client()
    except RuntimeError:
        return None
