"""Timeouts and retry policies for every activity the ticket workflow calls."""

from datetime import timedelta

from temporalio.common import RetryPolicy

# Thirty attempts ride out about half an hour of a Jira, GitHub or Discord outage; refusals
# (4xx) are non-retryable errors and fail at once.
HTTP_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(minutes=1),
    maximum_attempts=30,
)
# The advisory lookup gives up within a few minutes: the pull request then says the advisories
# could not be checked, rather than wait on the index.
ADVISORY_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=2),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(minutes=1),
    maximum_attempts=5,
)
GIT_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=2),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(minutes=1),
    maximum_attempts=6,
    non_retryable_error_types=["ValueError"],
)
# Analysis is retried at most three times, as the refinement design asks.
ANALYSIS_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=2), backoff_coefficient=2.0, maximum_attempts=3
)
# A model step or a test run fails for good only on its own errors (non-retryable) or after
# about half an hour of retries: a busy machine or a lost worker (heartbeat timeouts) must
# not fail a ticket after one slow spell.
LLM_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=5),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(minutes=5),
    maximum_attempts=10,
    non_retryable_error_types=["ModelAnswerError", "ContextTooSmall"],
)
TEST_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=10),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(minutes=5),
    maximum_attempts=10,
)

HTTP_TIMEOUT = timedelta(seconds=60)
GIT_TIMEOUT = timedelta(minutes=5)
LLM_TIMEOUT = timedelta(minutes=20)
# Graph activities heartbeat every few seconds with their checkpoint; a lost worker is
# noticed after this long and its work resumes elsewhere from the last checkpoint.
LLM_HEARTBEAT = timedelta(seconds=20)
TEST_TIMEOUT = timedelta(minutes=15)
