"""The time an implementation run may spend on revisions before it finishes with its best."""

import time
from collections.abc import Callable


def monotonic() -> float:
    """Seconds on the clock revisions are timed by."""
    return time.monotonic()


class Budget:
    """Minutes for revisions, counted from the run's start (or this attempt's, on a resume);
    None for no limit. A revision under way is finished; no new one starts once spent.

    `seconds_left` is a hard end as well: the ticket's time for work runs out then. No
    revision starts that would not end by then at the pace of the last one, and a revision
    that ends past it goes without its review.
    """

    def __init__(
        self,
        minutes: float | None,
        clock: Callable[[], float] | None = None,
        seconds_left: float | None = None,
    ):
        if minutes is not None and minutes <= 0:
            raise ValueError("the minutes for revisions must be more than 0")
        self.minutes = minutes
        self._clock = clock or monotonic
        self._end = None if minutes is None else self._clock() + minutes * 60
        self._hard_end = None if seconds_left is None else self._clock() + seconds_left
        self._revision_began: float | None = None
        self.stopped_by = ""  # who asked the run to stop (`/stop`), if anyone

    def stop(self, who: str) -> None:
        """End the run after the revision under way, as if the time were up."""
        self.stopped_by = self.stopped_by or who

    def revision_began(self) -> None:
        """Note that a revision starts now: the next is expected to take as long."""
        self._revision_began = self._clock()

    def spent(self) -> bool:
        """Whether the time is up, or someone asked to stop, or another revision as long as
        the last would end past the hard end."""
        now = self._clock()
        return (
            bool(self.stopped_by)
            or (self._end is not None and now >= self._end)
            or self._no_room(now)
        )

    def rushed(self) -> bool:
        """Whether a review now, and another revision after it, would not both end by the hard
        end: this revision's time so far twice over, for a review takes about half a revision
        and the next revision is paced by this one with its review."""
        if self._hard_end is None or self._revision_began is None:
            return False
        now = self._clock()
        return now + 2 * (now - self._revision_began) >= self._hard_end

    def over(self) -> bool:
        """Whether the hard end has passed: the revision under way ends without a review."""
        return self._hard_end is not None and self._clock() >= self._hard_end

    def _no_room(self, now: float) -> bool:
        if self._hard_end is None:
            return False
        last = 0.0 if self._revision_began is None else now - self._revision_began
        return now + last >= self._hard_end

    def note(self, revision: int) -> str:
        """The line the run's notes carry when the time ran out (or a stop came)."""
        if self.stopped_by:
            return f"Stopped after revision {revision}: {self.stopped_by} asked to stop."
        if self._end is None or self._clock() < self._end:
            return (
                f"Stopped after revision {revision}: the ticket's time for work would run out "
                "before another revision ended."
            )
        minutes = f"{self.minutes:g}"
        return f"Stopped after revision {revision}: the {minutes} minutes for revisions ran out."
