"""Durable waits for people: reminders after an interval, expiry after a limit."""

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from vocabulary.metrics import record_human_wait
    from workflows.ticket.messages import Status, WaitPolicy
    from workflows.ticket.outbox import Outbox


def reminder_text(key: str, what: str, number: int, left: timedelta) -> str:
    """The reminder comment: what the ticket waits for and how long it still waits."""
    days = left.total_seconds() / 86400
    return (
        f"Reminder {number}: {key} is still waiting for {what}. Work resumes as soon as it "
        f"arrives; after {days:.1f} more days the ticket expires."
    )


def work_ends_at(minutes: float, started: datetime, now: datetime, waited: timedelta) -> datetime:
    """When a ticket's `minutes` of work run out: counted from its start, less the time it
    waited for people."""
    worked = now - started - waited
    return now + timedelta(minutes=minutes) - worked


def expiry_text(key: str, what: str) -> str:
    """The comment that says the ticket expired and how to start it again."""
    return (
        f"{key} waited too long for {what} and has expired; nothing more will happen. "
        f"To work on it again, run `python starter.py {key} --restart`."
    )


class Waiter:
    """Waits for a condition, reminding on Jira and Discord, until it holds or time runs out."""

    def __init__(self, key: str, policy: WaitPolicy, outbox: Outbox) -> None:
        self._key = key
        self._policy = policy
        self._outbox = outbox
        self._count = 0
        self.waited = timedelta(0)  # every wait's length so far: time that is not work

    async def wait(self, ready: Callable[[], bool], status: Status, what: str) -> bool:
        """True once `ready()` holds; False when the wait expired (after posting why)."""
        self._count += 1
        started = workflow.now()
        deadline = started + self._policy.expire_after
        reminders = 0
        while True:
            left = deadline - workflow.now()
            timeout = left
            if reminders < self._policy.max_reminders:
                timeout = min(left, self._policy.reminder_interval)
            try:
                await workflow.wait_condition(
                    ready, timeout=timeout, timeout_summary=f"{status.value}: {what}"
                )
                self._record(status, started)
                return True
            except TimeoutError:
                if workflow.now() >= deadline:
                    self._record(status, started)
                    await asyncio.gather(
                        self._outbox.comment(
                            f"expired-{self._count}", expiry_text(self._key, what)
                        ),
                        self._outbox.notify(f"{self._key} expired waiting for {what}."),
                    )
                    return False
                reminders += 1
                text = reminder_text(self._key, what, reminders, deadline - workflow.now())
                await asyncio.gather(
                    self._outbox.comment(f"reminder-{self._count}-{reminders}", text),
                    self._outbox.notify(text),
                )

    def _record(self, status: Status, started: datetime) -> None:
        """The wait's length, for the human-wait histogram and the time that is not work."""
        self.waited += workflow.now() - started
        record_human_wait(workflow.metric_meter(), status.value, workflow.now() - started)
