"""A ticket's revisions as its status reports them (time and tokens to the first, seconds each),
and its model calls step by step as the worker logged them."""

import asyncio
import time
from pathlib import Path

from pydantic import BaseModel
from temporalio.client import WorkflowHandle
from temporalio.service import RPCError

from activities.progress import STAGES
from localmodel.report import Totals, summarise
from workflows.ticket.messages import Phase, TicketResult, TicketStatus


class ModelStep(BaseModel):
    """One step's model calls in one ticket: how long they took, what they read."""

    calls: int
    seconds: float
    prompt_tokens: int
    cached_tokens: int = 0  # read from the server's prompt cache

    @property
    def cached_share(self) -> float:
        """The share of prompt tokens the cache served."""
        return self.cached_tokens / self.prompt_tokens if self.prompt_tokens else 0.0

    def text(self) -> str:
        """The step in a few words."""
        return f"{self.seconds:.0f}s {self.prompt_tokens:,} tok {self.cached_share:.0%} cached"


POLL_S = 1.0  # the implementation reports its progress at most once a second
WRITING = {"starting", STAGES["worker"]}


def tokens_at_first_revision(status: TicketStatus) -> int | None:
    """The ticket's tokens once its first revision's files are written (its tests or review
    began, or a later revision did); None before."""
    progress = status.implementation
    if progress is None:
        return None
    if progress.revision >= 2 or (progress.revision == 1 and progress.stage not in WRITING):
        return status.tokens + progress.tokens  # the phases before, and the implementation's
    return None


async def watch_first_revision(handle: WorkflowHandle, started: float) -> tuple[float, int] | None:
    """Seconds from `started` (monotonic) and the ticket's tokens when its first revision is
    written; None when the implementation ends without one."""
    while True:
        try:
            status = await handle.query("status", result_type=TicketStatus)
        except RPCError:  # a worker busy with a long local-model call may answer late
            status = None
        if status is not None:
            tokens = tokens_at_first_revision(status)
            if tokens is not None:
                return round(time.monotonic() - started, 1), tokens
            if status.phase in (Phase.REVIEW, Phase.DONE):
                return None
        await asyncio.sleep(POLL_S)


def revisions_of(result: TicketResult) -> int | None:
    """How many revisions the implementation ran, as its last progress report says."""
    final = result.final_status
    if final is None or final.implementation is None:
        return None
    return final.implementation.revision


def implementation_seconds(result: TicketResult) -> float | None:
    """The implementation phase's working time (time waiting on people left out)."""
    for usage in result.usage:
        if usage.phase == Phase.IMPLEMENTATION and usage.ended_at is not None:
            spent = (usage.ended_at - usage.started_at).total_seconds() - usage.waiting_seconds
            return round(spent, 1)
    return None


def log_size(log: Path) -> int:
    """Where the worker's log ends now: the calls of what runs next are logged after it."""
    return log.stat().st_size if log.is_file() else 0


def logged_calls(log: Path, since: int) -> dict[str, Totals]:
    """The model calls the worker logged after offset `since`, by task in the order the tasks
    first ran (the local model's server reports the cached share)."""
    if not log.is_file():
        return {}
    with log.open("rb") as handle:
        handle.seek(since)
        lines = handle.read().decode(errors="replace").splitlines()
    return {task: totals for phase in summarise(lines).values() for task, totals in phase.items()}


def model_steps(calls: dict[str, Totals]) -> dict[str, ModelStep]:
    """Each task's calls as a ticket's figures: seconds, prompt tokens read and cached."""
    return {
        task: ModelStep(
            calls=t.calls,
            seconds=round(t.seconds, 1),
            prompt_tokens=t.prompt,
            cached_tokens=t.cached,
        )  # fmt: skip
        for task, t in calls.items()
    }


def steps_line(steps: dict[str, ModelStep]) -> str:
    """A ticket's model time by step in one line: `plan 96s 1,679 tok 12% cached | ...`."""
    return " | ".join(f"{task} {step.text()}" for task, step in steps.items())
