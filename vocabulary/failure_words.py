"""Why a ticket stopped, in sentences people can act on: the words alone, from the failed step,
its kind of timeout and its message (no Temporal imports: the command line reads them too)."""

# What each kind of activity timeout means for the person reading the ticket, by its name.
TIMEOUTS = {
    "HEARTBEAT": (
        "stopped reporting progress (its heartbeat timed out): the machine running the worker "
        "was too busy, or the worker went away"
    ),
    "START_TO_CLOSE": "ran longer than its time limit",
    "SCHEDULE_TO_START": "was not picked up by any worker in time",
    "SCHEDULE_TO_CLOSE": "did not finish within its overall time limit",
}


def stopped_in_words(step: str | None, timeout: str | None, message: str) -> str:
    """The innermost failure as one or more sentences: `step` is the activity it failed in,
    `timeout` the name of its kind of timeout (None when it is no timeout)."""
    if timeout in TIMEOUTS:
        what = f"The {step.replace('_', ' ')} step" if step else "A step"
        return sentence(
            f"{what} {TIMEOUTS[timeout]}, and still did after every retry. "
            "Nothing was lost: restart the ticket once the worker has room to run"
        )
    return sentence(message)


def sentence(text: str) -> str:
    """The text ending with a full stop, so that a following sentence reads as one."""
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else f"{text}."
