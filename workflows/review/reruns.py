"""Which CI failures are flakes to run again rather than fix, and the reruns each head commit had.

A batch of failures is rerun only when every one of them is an Actions job whose log shows a
flake (a check suite only sums its runs up, so it follows them), and only while each of those
jobs has had fewer reruns on the commit than the policy allows; anything else is fixed.
"""

from dataclasses import dataclass, field

from activities.review.messages import CiFailureReport, FailedJob
from workflows.review.messages import CheckInput

SUMMARIES = {"check_suite"}  # failures that only sum up their runs' conclusions


@dataclass
class CiTriage:
    """What to do about one batch of failures: rerun jobs, or fix them with the reports read
    (what a refused rerun falls back to as well)."""

    rerun: list[FailedJob] = field(default_factory=list)
    fix: list[CheckInput] = field(default_factory=list)
    reports: list[CiFailureReport] = field(default_factory=list)
    used_up: list[str] = field(default_factory=list)  # flaky jobs past their reruns


class CiReruns:
    """The reruns asked for on each head commit, by job name, and every job id rerun."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._counts: dict[tuple[str, str], int] = {}
        self._rerun_ids: set[int] = set()

    def triage(self, failures: list[CheckInput], reports: list[CiFailureReport]) -> CiTriage:
        """Rerun the batch's jobs when all of it is flaky and within bounds, else fix it."""
        pairs = list(zip(failures, reports, strict=True))
        live = [(f, r) for f, r in pairs if not self._done(r)]
        acting = [(f, r) for f, r in live if f.source not in SUMMARIES]
        if not acting and len(live) < len(pairs):
            return CiTriage()  # only summaries left of runs that went on: theirs come later
        jobs = {job.id: job for _, r in acting for job in r.jobs}
        flaky = bool(acting) and all(
            r.jobs and all(job.verdict.kind == "flake" for job in r.jobs) for _, r in acting
        )
        used_up: list[str] = []
        if flaky and self.limit > 0:
            head = acting[0][0].head_sha
            used_up = [j.name for j in jobs.values() if self.count(head, j.name) >= self.limit]
        triage = CiTriage(fix=[f for f, _ in live], reports=[r for _, r in live], used_up=used_up)
        if flaky and self.limit > 0 and not used_up:
            triage.rerun = list(jobs.values())
        return triage

    def count(self, head: str, job: str) -> int:
        """How many reruns of a job the commit had."""
        return self._counts.get((head, job), 0)

    def asked(self, head: str, jobs: list[FailedJob]) -> int:
        """Count one rerun of each job on the commit; the most any of them has had now."""
        for job in jobs:
            self._counts[(head, job.name)] = self.count(head, job.name) + 1
            self._rerun_ids.add(job.id)
        return max(self.count(head, job.name) for job in jobs)

    def _done(self, report: CiFailureReport) -> bool:
        """Whether a failure is old news: its run went on, or its jobs were rerun already."""
        rerun = bool(report.jobs) and all(job.id in self._rerun_ids for job in report.jobs)
        return report.superseded or rerun
