"""Where a ticket is, for people: the status query, search attributes, Web UI details, events."""

from collections.abc import Iterator
from contextlib import contextmanager

from temporalio import workflow
from temporalio.common import SearchAttributeKey

with workflow.unsafe.imports_passed_through():
    from graphs.progress import ImplementationProgress, progress_markdown
    from llm.cost import ModelCost
    from workflows.review.messages import PullRequestView
    from workflows.ticket.messages import (
        Phase,
        PhaseUsage,
        Status,
        TicketInput,
        TicketResult,
        TicketStatus,
    )

TICKET_KEY = SearchAttributeKey.for_keyword("TicketKey")
PROJECT = SearchAttributeKey.for_keyword("Project")
PHASE = SearchAttributeKey.for_keyword("Phase")
STATUS = SearchAttributeKey.for_keyword("Status")


class Tracker:
    """Keeps the status, the search attributes and the current details in step."""

    def __init__(self, inp: TicketInput) -> None:
        self.status = TicketStatus(
            key=inp.key,
            phase=Phase.REFINEMENT,
            status=Status.RUNNING,
            token_budget=inp.token_budget,
            cost_cap=inp.cost_cap,
            unsigned_deliveries=int(inp.unsigned_start),
        )
        self._project = inp.project.jira_project
        self._indexed: tuple[Phase, Status] | None = None
        self._tokens_before = 0
        self._cost_before = ModelCost()

    def set(self, phase: Phase, status: Status, message: str) -> None:
        """Move to a phase and status; search attributes change only when those do."""
        self._account(phase, status)
        self.status.phase, self.status.status, self.status.message = phase, status, message
        if self._indexed != (phase, status):
            self._indexed = (phase, status)
            # Only the key, project, phase and status: ticket text never goes into an index.
            workflow.upsert_search_attributes(
                [
                    TICKET_KEY.value_set(self.status.key),
                    PROJECT.value_set(self._project),
                    PHASE.value_set(phase.value),
                    STATUS.value_set(status.value),
                ]
            )
        workflow.set_current_details(self.details())

    def _account(self, phase: Phase, status: Status) -> None:
        """Keep each phase's time, tokens and time waiting on people."""
        now, usage = workflow.now(), self.status.usage
        current = usage[-1] if usage else None
        waiting = status.value.startswith("awaiting")
        if current is not None:
            current.tokens = self.status.tokens - self._tokens_before
            current.cost = self.status.cost.since(self._cost_before)
            if current.waiting_since is not None and not waiting:
                current.waiting_seconds += (now - current.waiting_since).total_seconds()
                current.waiting_since = None
            if current.phase != phase:
                current.ended_at = now
                self._tokens_before = self.status.tokens
                self._cost_before = self.status.cost
        if phase != Phase.DONE and (current is None or current.phase != phase):
            current = PhaseUsage(phase=phase, started_at=now)
            usage.append(current)
        if current is not None and waiting and current.waiting_since is None:
            current.waiting_since = now

    @contextmanager
    def step(self, summary: str) -> Iterator[None]:
        """Show `summary` as the step in flight (with its start) while the block runs."""
        self.status.step, self.status.step_started_at = summary, workflow.now()
        workflow.set_current_details(self.details())
        try:
            yield
        finally:
            self.status.step = self.status.step_started_at = None

    def report(self, progress: ImplementationProgress) -> None:
        """Take the implementation's latest progress; a late, older report changes nothing."""
        current = self.status.implementation
        if current is None or progress.sequence > current.sequence:
            self.status.implementation = progress
            workflow.set_current_details(self.details())

    def details(self) -> str:
        """A short markdown status for the Web UI."""
        s = self.status
        lines = [f"**{s.key}**: {s.phase.value} / {s.status.value}", "", s.message]
        if s.step and s.step_started_at:
            lines.append(f"\nStep: {s.step} (since {s.step_started_at:%H:%M:%S} UTC)")
        if s.implementation and s.phase == Phase.IMPLEMENTATION:
            lines.append("\n" + progress_markdown(s.implementation))
        if s.plan_version:
            lines.append(f"\nPlan version: {s.plan_version}")
        if s.branch:
            lines.append(f"\nBranch: `{s.branch}`")
        if s.pr_url:
            lines.append(f"\nPull request: {s.pr_url}")
        if s.pull_request is not None:
            lines += review_details(s.pull_request)
        budget = f" of {s.token_budget}" if s.token_budget else ""
        lines.append(f"\nModel tokens: {s.tokens}{budget} ({s.cost.split()})")
        lines.append(f"\nCost: {s.cost.text(s.cost_cap)}")
        return "\n".join(lines)

    def event(self, name: str, detail: str) -> None:
        """A structured lifecycle event in the worker's log (not repeated on replay)."""
        workflow.logger.info(
            "ticket %s: %s",
            name,
            detail,
            extra={
                "event": f"ticket_{name}",
                "ticket_key": self.status.key,
                "phase": self.status.phase.value,
                "status": self.status.status.value,
            },
        )

    def result(self, status: Status, message: str) -> TicketResult:
        """Finish: record the final status and build the workflow's result."""
        self.set(Phase.DONE, status, message)
        s = self.status
        return TicketResult(
            key=s.key,
            status=status,
            plan_version=s.plan_version,
            branch=s.branch,
            pr_url=s.pr_url,
            pr_draft=s.pr_draft,
            tests_passed=s.tests_passed,
            message=message,
            usage=s.usage,
            pull_request=s.pull_request,
            final_status=s.model_copy(deep=True),
        )


def review_details(view: PullRequestView) -> list[str]:
    """The pull request's checks and rounds, for the Web UI."""
    checks = ", ".join(f"{c.name}: {c.conclusion}" for c in view.checks) or "none reported yet"
    lines = [f"\nChecks on {(view.head_sha or 'the head')[:7]}: {checks}"]
    rounds = f"{view.ci_rounds} CI fix, {view.review_rounds} review; {view.ci_reruns} CI reruns"
    lines.append(f"\nRounds: {rounds}")
    if view.waiting_for:
        lines.append(f"\nWaiting for: {view.waiting_for}")
    return lines
