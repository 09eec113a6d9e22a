"""People steering a running implementation or review round: guidance its next revision is
given, and a stop that ends it with its best revision. Handlers record; the running activity
reads them with the `steering` query and reports what it used with its progress."""

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from workflows.ticket.human_input import HumanInput
    from workflows.ticket.messages import (
        Guidance,
        GuidanceGiven,
        HumanInputAccepted,
        Phase,
        SayInput,
        Status,
        Steering,
        StopInput,
        TicketStatus,
    )

MAX_GUIDANCE_CHARS = 2000
STEERABLE = (Phase.IMPLEMENTATION, Phase.REVIEW)


class SteeringHandlers:
    """`say` and `stop` (signals from comments, updates from the command line), the query."""

    _status: TicketStatus
    _human: HumanInput

    @workflow.query
    def steering(self) -> Steering:
        """Every guidance people gave and who asked to stop (read by the running activity)."""
        return self._status.steering

    @workflow.signal
    def say(self, inp: SayInput) -> None:
        """Guidance from a Jira comment while the ticket implements or follows its PR."""
        if self._steerable() and self._human.first_delivery(inp):
            self._record_guidance(inp)

    @workflow.signal
    def stop(self, inp: StopInput) -> None:
        """`/stop` from a Jira comment: end the implementation with its best revision."""
        if self._steerable() and self._human.first_delivery(inp):
            self._record_stop(inp)

    @workflow.update
    def say_to(self, inp: SayInput) -> HumanInputAccepted:
        """Guidance from the command line."""
        guidance = self._record_guidance(inp)
        return HumanInputAccepted(
            message=f"Guidance {guidance.id} recorded; the next revision is given it "
            "(`starter.py status` shows when)."
        )

    @say_to.validator
    def _validate_say(self, inp: SayInput) -> None:
        if not inp.text.strip():
            raise ValueError("guidance cannot be empty")
        self._check_steerable("guidance")

    @workflow.update
    def stop_now(self, inp: StopInput) -> HumanInputAccepted:
        """A stop from the command line."""
        self._record_stop(inp)
        return HumanInputAccepted(
            message="Stop recorded: the revision under way finishes, then the best one goes out."
        )

    @stop_now.validator
    def _validate_stop(self, inp: StopInput) -> None:
        self._check_steerable("a stop")

    def _steerable(self) -> bool:
        return self._status.phase in STEERABLE and self._status.status == Status.RUNNING

    def _check_steerable(self, what: str) -> None:
        if not self._steerable():
            raise ValueError(
                f"{self._status.key} takes {what} while it implements or runs a review round; "
                f"it is {self._status.status.value} (phase {self._status.phase.value})"
            )

    def _record_guidance(self, inp: SayInput) -> Guidance:
        steering = self._status.steering
        text = inp.text.strip()[:MAX_GUIDANCE_CHARS]
        guidance = Guidance(
            id=len(steering.guidance) + 1, text=text, author=inp.author, at=workflow.now()
        )
        steering.guidance.append(guidance)
        self._human.decide("say", inp.author, workflow.now(), text, inp.unsigned)
        return guidance

    def _record_stop(self, inp: StopInput) -> None:
        if not self._status.steering.stop_requested_by:
            self._status.steering.stop_requested_by = inp.author
            self._human.decide("stop", inp.author, workflow.now(), "/stop", inp.unsigned)

    @workflow.signal
    def guidance_given(self, inp: GuidanceGiven) -> None:
        """The running activity gave these pieces of guidance to a revision: no longer pending."""
        for guidance in self._status.steering.guidance:
            if guidance.id in inp.ids and guidance.used_in_revision is None:
                guidance.used_in_revision = inp.revision
