"""The time an implementation run may spend on revisions before it finishes with its best."""

import time
from collections.abc import Callable


def monotonic() -> float:
    """Seconds on the clock revisions are timed by."""
    return time.monotonic()


class Budget:
    """Minutes for revisions, counted from the run's start (or this attempt's, on a resume);
    None for no limit. A revision under way is finished; no new one starts once spent."""

    def __init__(self, minutes: float | None, clock: Callable[[], float] | None = None):
        if minutes is not None and minutes <= 0:
            raise ValueError("the minutes for revisions must be more than 0")
        self.minutes = minutes
        self._clock = clock or monotonic
        self._end = None if minutes is None else self._clock() + minutes * 60
        self.stopped_by = ""  # who asked the run to stop (`/stop`), if anyone

    def stop(self, who: str) -> None:
        """End the run after the revision under way, as if the time were up."""
        self.stopped_by = self.stopped_by or who

    def spent(self) -> bool:
        """Whether the time is up, or someone asked to stop."""
        return bool(self.stopped_by) or (self._end is not None and self._clock() >= self._end)

    def note(self, revision: int) -> str:
        """The line the run's notes carry when the time ran out (or a stop came)."""
        if self.stopped_by:
            return f"Stopped after revision {revision}: {self.stopped_by} asked to stop."
        minutes = f"{self.minutes:g}"
        return f"Stopped after revision {revision}: the {minutes} minutes for revisions ran out."
