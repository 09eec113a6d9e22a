"""One benchmark ticket through the real workflow: start, answer, approve, wait, score."""

import asyncio
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from pydantic import BaseModel, Field
from temporalio.exceptions import ApplicationError
from temporalio.service import RPCError

from bench.quality.answers import read_posted_answer
from bench.quality.revisions import (
    ModelStep,
    implementation_seconds,
    revisions_of,
    watch_first_revision,
)
from bench.quality.scoring import Score, check_answer, score_checkout, score_unchanged
from bench.quality.setup import OWNER
from bench.quality.tickets import Ticket
from config import Settings
from embedded.demo import WAIT_S, starter, wait_for_status
from embedded.stack import StackError
from temporal.client import connect_temporal
from workflows.ticket.messages import Phase, Status, TicketResult, TicketStatus

MAX_ANSWER_ROUNDS = 4
STATUS_WAIT_S = 30.0


class TicketRun(BaseModel):
    """What the product did with one ticket and how the result scored."""

    name: str
    key: str
    status: str
    seconds: float
    tokens: int = 0
    run: int = 1  # which run of the benchmark, from 1
    seed: int | None = None  # the model seed of that run
    first_revision_seconds: float | None = None
    first_revision_tokens: int | None = None
    # The code writers' calls (local model): prompt tokens each, and the share the cache served.
    prompt_tokens_per_call: float | None = None
    cached_share: float | None = None
    # Every step's model calls (local model): by task, in the order they first ran.
    model_steps: dict[str, ModelStep] = Field(default_factory=dict)
    revisions: int | None = None
    implementation_seconds: float | None = None
    pr_url: str | None = None
    pr_draft: bool | None = None
    tests_passed: bool | None = None
    claimed_success: bool = False
    question_rounds: int = 0
    score: Score | None = None
    # A question's answer as the product posted it on the issue, and whether it has a rubric.
    posted_answer: str = ""
    unscored_question: bool = False
    error: str = ""

    @property
    def resolved(self) -> bool:
        """The hidden tests and the repository's own tests pass on the pushed branch (and a
        question's posted answer holds its rubric's facts)."""
        return self.score is not None and self.score.resolved

    @property
    def scored(self) -> bool:
        """Whether the run counts in the rate: a question without a rubric does not."""
        return not self.unscored_question and (self.score is None or self.score.scored)

    @property
    def false_claim(self) -> bool:
        """The product said the change works and the hidden tests say it does not."""
        return self.claimed_success and not self.resolved

    @property
    def seconds_per_revision(self) -> float | None:
        """The implementation's working time over its revisions."""
        if not self.revisions or self.implementation_seconds is None:
            return None
        return round(self.implementation_seconds / self.revisions, 1)


class Driven(BaseModel):
    """How the workflow ended, the rounds of answers it took and its first revision."""

    result: TicketResult
    rounds: int
    first_revision: tuple[float, int] | None = None


async def run_workflow(settings: Settings, ticket: Ticket, started: float) -> Driven:
    """Start the ticket, answer every round of questions from the answers file, approve, and
    watch for its first revision (seconds from `started`, monotonic) until it ends."""
    client = await connect_temporal(settings)
    key = ticket.key
    starter(settings, key, "--restart")
    either = {Status.AWAITING_ANSWERS, Status.AWAITING_APPROVAL}
    current = await wait_for_status(client, either, key=key)
    rounds = 0
    while current.status == Status.AWAITING_ANSWERS and rounds < MAX_ANSWER_ROUNDS:
        rounds += 1
        starter(settings, "answer", key, ticket.answers.strip(), "--as", "alice")
        current = await wait_for_status(client, either, current.question_round, key=key)
    if current.status != Status.AWAITING_APPROVAL:
        raise StackError(f"{key} still asked questions after {rounds} rounds of answers")
    starter(settings, "approve", key, "--as", "bob")
    handle = client.get_workflow_handle(f"ticket-{key}", result_type=TicketResult)
    watcher = asyncio.create_task(watch_first_revision(handle, started))
    try:
        result: TicketResult = await asyncio.wait_for(handle.result(), WAIT_S)
    finally:
        watcher.cancel()  # a task already done keeps its result
    seen = watcher.done() and not watcher.cancelled() and watcher.exception() is None
    return Driven(result=result, rounds=rounds, first_revision=watcher.result() if seen else None)


def clone_branch(settings: Settings, ticket: Ticket, branch: str, target: Path) -> None:
    """Clone the pushed branch from the git emulator."""
    url = f"{settings.git_base_url}/{OWNER}/{ticket.name}.git"
    done = subprocess.run(
        ["git", "clone", "--quiet", "--depth", "1", "--branch", branch, url, str(target)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        raise StackError(f"cannot clone {branch} of {url}: {done.stderr.strip()}")


async def stop_workflow(settings: Settings, ticket: Ticket, why: str) -> TicketStatus | None:
    """Terminate a ticket past its deadline, so the next one has the machine to itself; its
    status just before (None when it does not answer)."""
    client = await connect_temporal(settings)
    handle = client.get_workflow_handle(f"ticket-{ticket.key}")
    try:
        status = await asyncio.wait_for(
            handle.query("status", result_type=TicketStatus), STATUS_WAIT_S
        )
    except (RPCError, TimeoutError):  # a worker busy with a long local-model call answers late
        status = None
    try:
        await handle.terminate(reason=why)
    except RPCError:  # it ended meanwhile
        pass
    return status


def where_cut(status: TicketStatus | None) -> str:
    """The step a ticket was in when cut: its phase, and the implementation's revision."""
    if status is None:
        return "its status did not answer"
    progress = status.implementation
    if status.phase == Phase.IMPLEMENTATION and progress is not None:
        return f"in revision {progress.revision} ({progress.stage})"
    return f"in {status.phase.value}" + (f" ({status.step})" if status.step else "")


def tokens_so_far(status: TicketStatus | None) -> int:
    """The ticket's tokens when cut: its ended phases' and the running implementation's."""
    if status is None:
        return 0
    running = status.implementation.tokens if status.implementation is not None else 0
    return status.tokens + running


async def run_ticket(
    settings: Settings, ticket: Ticket, deadline_s: float | None = None, run_number: int = 1
) -> TicketRun:
    """Drive one ticket and score its pushed branch with the hidden tests."""
    started = time.monotonic()
    run = TicketRun(
        name=ticket.name, key=ticket.key, status="error", seconds=0.0, run=run_number,
        seed=settings.model_seed,
        unscored_question=not ticket.needs_change and not ticket.answer_facts,
    )  # fmt: skip
    try:
        try:
            driven = await asyncio.wait_for(run_workflow(settings, ticket, started), deadline_s)
        except TimeoutError:
            why = f"cut at the benchmark's deadline of {(deadline_s or 0) / 60:.0f} min a ticket"
            status = await stop_workflow(settings, ticket, why)
            run.status, run.error = "deadline", f"{why}, {where_cut(status)}"
            run.tokens = tokens_so_far(status)
            run.seconds = round(time.monotonic() - started, 1)
            return run
        result = driven.result
        run.status, run.question_rounds = result.status.value, driven.rounds
        run.tokens = sum(phase.tokens for phase in result.usage)
        if driven.first_revision is not None:
            run.first_revision_seconds, run.first_revision_tokens = driven.first_revision
        run.revisions = revisions_of(result)
        run.implementation_seconds = implementation_seconds(result)
        run.pr_url, run.pr_draft, run.tests_passed = (
            result.pr_url,
            result.pr_draft,
            result.tests_passed,
        )
        run.claimed_success = result.tests_passed is True and result.pr_draft is False
        if result.branch:
            with tempfile.TemporaryDirectory(prefix="quality-score-") as scratch:
                checkout = Path(scratch) / "checkout"
                await asyncio.to_thread(clone_branch, settings, ticket, result.branch, checkout)
                run.score = await asyncio.to_thread(score_checkout, ticket, checkout)
        elif not ticket.needs_change and result.status == Status.COMPLETED:
            with tempfile.TemporaryDirectory(prefix="quality-score-") as scratch:
                run.score = await asyncio.to_thread(score_unchanged, ticket, Path(scratch))
        else:
            run.error = f"no branch was pushed: {result.message}"
        if not ticket.needs_change:
            run.posted_answer = await read_posted_answer(settings, ticket)
            if run.score is not None:
                run.score = check_answer(run.score, ticket, run.posted_answer)
    except (StackError, TimeoutError, httpx.HTTPError, ApplicationError) as err:
        run.error = str(err) or type(err).__name__
    run.seconds = round(time.monotonic() - started, 1)
    return run
