"""Why a ticket stopped, in sentences: timeouts say what happened, messages end with a stop."""

from temporalio.exceptions import (
    ActivityError,
    ApplicationError,
    ChildWorkflowError,
    RetryState,
    TimeoutError,
    TimeoutType,
)

from vocabulary.failures import failure_in_words
from workflows.policies import LLM_RETRY, TEST_RETRY


def activity_failure(cause: BaseException, activity: str = "run_tests") -> ChildWorkflowError:
    """A child workflow whose activity failed with `cause`, as the ticket workflow sees it."""
    failed = ActivityError(
        "Activity task failed", scheduled_event_id=5, started_event_id=6, identity="w",
        activity_type=activity, activity_id="1", retry_state=RetryState.MAXIMUM_ATTEMPTS_REACHED,
    )  # fmt: skip
    failed.__cause__ = cause
    child = ChildWorkflowError(
        "Child Workflow execution failed", namespace="default", workflow_id="impl",
        run_id="r", workflow_type="ImplementationWorkflow", initiated_event_id=1,
        started_event_id=2, retry_state=RetryState.NON_RETRYABLE_FAILURE,
    )  # fmt: skip
    child.__cause__ = failed
    return child


def test_a_heartbeat_timeout_says_what_happened_in_sentences() -> None:
    timeout = TimeoutError(
        "activity Heartbeat timeout", type=TimeoutType.HEARTBEAT, last_heartbeat_details=[]
    )
    text = failure_in_words(activity_failure(timeout))
    assert text.startswith("The run tests step stopped reporting progress")
    assert "heartbeat timed out" in text and "after every retry" in text
    assert "activity Heartbeat timeout" not in text
    assert text.endswith(".")


def test_an_application_error_keeps_its_message_and_ends_a_sentence() -> None:
    error = ApplicationError("GitHub refused the pull request: Validation Failed")
    assert failure_in_words(activity_failure(error, "open_pull_request")) == (
        "GitHub refused the pull request: Validation Failed."
    )
    assert failure_in_words(ApplicationError("Plan rejected 5 times.")) == "Plan rejected 5 times."


def test_infrastructure_failures_are_retried_for_a_long_while() -> None:
    for policy in (TEST_RETRY, LLM_RETRY):
        waits, interval = 0.0, policy.initial_interval.total_seconds()
        for _ in range((policy.maximum_attempts or 0) - 1):
            waits += interval
            interval = min(
                interval * policy.backoff_coefficient,
                policy.maximum_interval.total_seconds() if policy.maximum_interval else interval,
            )
        assert waits >= 15 * 60, f"{policy} gives up after {waits:.0f} s of backoff"
