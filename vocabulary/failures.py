"""Why a ticket stopped, read from Temporal's chain of exceptions (the words: failure_words)."""

from temporalio.exceptions import ActivityError, TimeoutError

from vocabulary.failure_words import stopped_in_words


def failure_in_words(err: BaseException) -> str:
    """The innermost cause of a failure as one or more sentences, naming the step."""
    step = None
    while err.__cause__ is not None:
        if isinstance(err, ActivityError):
            step = err.activity_type
        err = err.__cause__
    timeout = err.type.name if isinstance(err, TimeoutError) and err.type is not None else None
    return stopped_in_words(step, timeout, getattr(err, "message", None) or str(err))
