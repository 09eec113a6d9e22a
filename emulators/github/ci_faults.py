"""Faults of the emulated GitHub Actions: the next jobs fail as flaky runs do (a network error
in the checkout, a time-out, a cancel, a lost runner), once or N times, without running the
tests; a rerun of the job takes the next fault or, with none left, runs them for real.

`POST /_emulator/github/ci/faults` adds one (`{"kind", "times", "repository", "message"}`: any
repository and commit when those are left out, `message` a regular expression searched in the
head commit's message), `GET` lists them with the times each has left, `DELETE` clears them.
"""

import re
from dataclasses import dataclass, field
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field, field_validator

FaultKind = Literal["network", "timed_out", "cancelled", "runner"]


class CiFault(BaseModel):
    """Fail the next `times` jobs that match as a flaky run of `kind` does."""

    kind: FaultKind = "network"
    times: int = Field(default=1, ge=0)
    repository: str | None = Field(default=None, description="owner/name; none: any")
    message: str | None = Field(default=None, description="searched in the commit's message")

    @field_validator("message")
    @classmethod
    def _pattern(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as err:
                raise ValueError(f"message is not a regular expression: {err}") from err
        return value


@dataclass(frozen=True)
class JobOutcome:
    """How one attempt of the job ends: its conclusion, the step that failed (1-4), the lines it
    printed and the error Actions adds to its log (and as its annotation)."""

    conclusion: str
    step: int = 3
    lines: list[str] = field(default_factory=list)
    error: str = ""


def faulted(fault: CiFault, repository: str) -> JobOutcome:
    """What a job hit by the fault logs and concludes."""
    if fault.kind == "network":
        return JobOutcome(
            "failure", 2,
            [f"fatal: unable to access 'https://github.com/{repository}/': Could not resolve "
             "host: github.com"],
            "The process '/usr/bin/git' failed with exit code 128",
        )  # fmt: skip
    if fault.kind == "timed_out":
        return JobOutcome(
            "timed_out", error="The job running on runner emulated-runner has exceeded the "
            "maximum execution time of 10 minutes.",
        )  # fmt: skip
    if fault.kind == "cancelled":
        return JobOutcome("cancelled", error="The operation was canceled.")
    return JobOutcome(
        "failure", error="The hosted runner: emulated-runner lost communication with the server. "
        "Anything in your workflow that terminates the runner process, starves it for CPU/Memory, "
        "or blocks its network access can cause this error.",
    )  # fmt: skip


class CiFaults:
    """The faults in force, in the order they were added; each used up after its times."""

    def __init__(self) -> None:
        self.faults: list[CiFault] = []

    def take(self, repository: str, message: str) -> CiFault | None:
        """The first fault that hits a job of this repository and commit message, counted."""
        for fault in self.faults:
            if fault.times <= 0 or fault.repository not in (None, repository):
                continue
            if fault.message is not None and not re.search(fault.message, message):
                continue
            fault.times -= 1
            return fault
        return None


def create_ci_faults_router(
    faults: CiFaults, prefix: str = "/_emulator/github/ci/faults"
) -> APIRouter:
    """The admin routes of the CI's faults (GitLab's CI has its own at its `prefix`); never
    logged, never faulted themselves."""
    router = APIRouter(prefix=prefix, tags=["emulator"])

    @router.get("")
    def list_faults() -> list[CiFault]:
        return faults.faults

    @router.post("", status_code=201)
    def add_fault(fault: CiFault) -> CiFault:
        faults.faults.append(fault)
        return fault

    @router.delete("", status_code=204)
    def clear_faults() -> None:
        faults.faults.clear()

    return router
