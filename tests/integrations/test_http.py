"""HTTP failures become Temporal errors: retryable only when a retry can help."""

from datetime import timedelta
from typing import Any

import httpx
import pytest
from temporalio.exceptions import ApplicationError

from integrations.http import build_http_client, raise_for_status


def response(
    status: int,
    body: Any = None,
    headers: dict[str, str] | None = None,
    text: str | None = None,
    method: str = "GET",
    url: str = "https://example.test/rest/api/3/issue/DEMO-1",
) -> httpx.Response:
    request = httpx.Request(method, url)
    if text is not None:
        return httpx.Response(status, text=text, headers=headers, request=request)
    return httpx.Response(status, json=body, headers=headers, request=request)


def failure(service: str, resp: httpx.Response) -> ApplicationError:
    with pytest.raises(ApplicationError) as caught:
        raise_for_status(service, resp)
    return caught.value


def test_success_returns() -> None:
    for status in (200, 201, 204):
        raise_for_status("Jira", response(status, {}))


def test_jira_404_is_not_retryable_and_carries_the_message() -> None:
    body = {"errorMessages": ["Issue does not exist or you do not have permission to see it."]}
    err = failure("Jira", response(404, body | {"errors": {}}))
    assert err.type == "JiraNotFound"
    assert err.non_retryable
    assert "Issue does not exist" in err.message
    assert "GET /rest/api/3/issue/DEMO-1" in err.message
    assert "404" in err.message
    assert err.details[0]["status_code"] == 404


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (400, "JiraBadRequest"),
        (401, "JiraUnauthorized"),
        (403, "JiraForbidden"),
        (409, "JiraConflict"),
    ],
)
def test_client_errors_are_named_by_status(status: int, kind: str) -> None:
    err = failure(
        "Jira", response(status, {"errorMessages": [], "errors": {"summary": "required"}})
    )
    assert (err.type, err.non_retryable) == (kind, True)
    assert "summary: required" in err.message


def test_rate_limit_honours_retry_after() -> None:
    err = failure("GitHub", response(429, {"message": "slow down"}, {"Retry-After": "7"}))
    assert err.type == "GitHubRateLimited"
    assert not err.non_retryable
    assert err.next_retry_delay == timedelta(seconds=7)


def test_discord_rate_limit_reads_retry_after_from_the_body() -> None:
    body = {"message": "You are being rate limited.", "retry_after": 1.5, "global": False}
    err = failure("Discord", response(429, body, method="POST"))
    assert err.type == "DiscordRateLimited"
    assert err.next_retry_delay == timedelta(seconds=1.5)


def test_github_exhausted_rate_limit_on_403_is_retried() -> None:
    err = failure(
        "GitHub",
        response(403, {"message": "API rate limit exceeded"}, {"x-ratelimit-remaining": "0"}),
    )
    assert err.type == "GitHubRateLimited"
    assert not err.non_retryable


SECONDARY = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
)


@pytest.mark.parametrize(
    ("status", "headers", "wait_s"),
    [
        (403, {"retry-after": "30", "x-ratelimit-remaining": "4990"}, 30),
        (403, {"x-ratelimit-remaining": "4990", "x-ratelimit-reset": "9999999999"}, 60),
        (429, {"x-ratelimit-remaining": "4990", "x-ratelimit-reset": "9999999999"}, 60),
    ],
)
def test_github_secondary_rate_limits_wait_as_github_asks(
    status: int, headers: dict[str, str], wait_s: int
) -> None:
    err = failure("GitHub", response(status, {"message": SECONDARY}, headers, method="POST"))
    assert (err.type, err.non_retryable) == ("GitHubRateLimited", False)
    # The hourly reset is only the wait when the primary limit is used up.
    assert err.next_retry_delay == timedelta(seconds=wait_s)


def test_a_plain_github_403_is_final() -> None:
    body = {"message": "Resource not accessible by integration"}
    err = failure("GitHub", response(403, body, {"x-ratelimit-remaining": "4990"}))
    assert (err.type, err.non_retryable) == ("GitHubForbidden", True)


@pytest.mark.parametrize("status", [408, 500, 502, 503])
def test_server_errors_are_retryable(status: int) -> None:
    err = failure("Jira", response(status, text="<html>Service Unavailable</html>"))
    assert err.type == "JiraUnavailable"
    assert not err.non_retryable
    assert "Service Unavailable" in err.message


def test_github_validation_lists_each_error() -> None:
    body = {
        "message": "Validation Failed",
        "errors": [
            {
                "resource": "PullRequest",
                "code": "custom",
                "message": "A pull request already exists for demo:x.",
            },
            {"resource": "PullRequest", "field": "head", "code": "invalid"},
        ],
    }
    err = failure("GitHub", response(422, body, method="POST"))
    assert err.type == "GitHubValidationFailed"
    assert err.non_retryable
    assert "A pull request already exists for demo:x." in err.message
    assert "PullRequest.head invalid" in err.message


def test_discord_form_errors_are_flattened() -> None:
    error = {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}
    body = {
        "message": "Invalid Form Body",
        "code": 50035,
        "errors": {"content": {"_errors": [error]}},
    }
    err = failure("Discord", response(400, body, method="POST"))
    assert err.type == "DiscordBadRequest"
    assert "Invalid Form Body (code 50035)" in err.message
    assert "content: Must be 2000 or fewer in length." in err.message


def test_client_timeouts() -> None:
    client = build_http_client("https://example.test", headers={"X-A": "1"})
    assert client.timeout == httpx.Timeout(30, connect=10)
    assert client.headers["X-A"] == "1"
