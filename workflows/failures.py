"""Why a ticket stopped, in sentences people can act on (pure functions, no I/O)."""

from temporalio.exceptions import ActivityError, TimeoutError, TimeoutType

# What each kind of activity timeout means for the person reading the ticket.
TIMEOUTS = {
    TimeoutType.HEARTBEAT: (
        "stopped reporting progress (its heartbeat timed out): the machine running the worker "
        "was too busy, or the worker went away"
    ),
    TimeoutType.START_TO_CLOSE: "ran longer than its time limit",
    TimeoutType.SCHEDULE_TO_START: "was not picked up by any worker in time",
    TimeoutType.SCHEDULE_TO_CLOSE: "did not finish within its overall time limit",
}


def failure_in_words(err: BaseException) -> str:
    """The innermost cause of a failure as one or more sentences, naming the step."""
    step = None
    while err.__cause__ is not None:
        if isinstance(err, ActivityError):
            step = err.activity_type
        err = err.__cause__
    if isinstance(err, TimeoutError) and err.type in TIMEOUTS:
        what = f"The {step.replace('_', ' ')} step" if step else "A step"
        return sentence(
            f"{what} {TIMEOUTS[err.type]}, and still did after every retry. "
            "Nothing was lost: restart the ticket once the worker has room to run"
        )
    return sentence(getattr(err, "message", None) or str(err))


def sentence(text: str) -> str:
    """The text ending with a full stop, so that a following sentence reads as one."""
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else f"{text}."
