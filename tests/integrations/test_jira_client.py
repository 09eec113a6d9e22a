"""JiraClient against the Jira emulator: Cloud v3 (ADF) and Server v2 (wiki markup), each
in-process and over real HTTP."""

import base64
from collections.abc import AsyncIterator
from datetime import timedelta

import httpx
import pytest
from temporalio.exceptions import ApplicationError
from temporalio.testing import ActivityEnvironment

from activities.messages import ApproverFacts, ApproverLookupInput, FetchTicketInput
from activities.tracker import TrackerActivities
from integrations.jira.client import JiraClient
from tests.emulators.helpers import BASE_URL
from tests.integrations.conftest import Emulator

CRITERIA = "customfield_10035"
MARKDOWN = (
    "Questions:\n\n1. Negative exponents?\n2. `power(0, -1)`: raise like **divide**?\n\n"
    "```python\npower(2, -1)\n```\n\n*ticketsmith ref: q-1*"
)


@pytest.fixture(params=[3, 2], ids=["cloud-v3", "server-v2"])
def version(request: pytest.FixtureRequest) -> int:
    return int(request.param)


def client(emulator: Emulator, version: int, email: str = "ticketsmith@example.com", **kw: str):
    return JiraClient(
        emulator.base_url, email, "token", version, transport=emulator.transport, **kw
    )


@pytest.fixture
async def jira(emulator: Emulator, version: int) -> AsyncIterator[JiraClient]:
    async with client(emulator, version) as jira:
        yield jira


async def test_get_issue(jira: JiraClient) -> None:
    issue = await jira.get_issue("DEMO-1")
    assert issue.key == "DEMO-1"
    assert issue.summary == "Add a power operation to the calculator"
    assert issue.status == "To Do"
    assert issue.reporter == "Alice Reporter"
    assert issue.labels == ["calculator", "good-first-issue"]
    assert "## What we need" in issue.description
    assert "- A function `power(base, exponent)` in `calc/operations.py`" in issue.description
    assert "1. `power(2, 3)` returns `8`" in issue.description
    assert issue.comments == []
    assert issue.acceptance_criteria == ""


async def test_comment_round_trip_in_markdown(
    jira: JiraClient, emulator: Emulator, version: int
) -> None:
    posted = await jira.add_comment("DEMO-1", MARKDOWN)
    assert (posted.author_id, posted.author_name) == ("ticketsmith-bot", "ticketsmith")
    assert posted.body == MARKDOWN
    issue = await jira.get_issue("DEMO-1")
    assert [(c.id, c.body) for c in issue.comments] == [(posted.id, MARKDOWN)]
    sent = [r["body"]["body"] for r in await emulator.requests() if r["method"] == "POST"]
    if version == 2:  # wiki markup on the wire
        assert sent[0].startswith("Questions:\n\n# Negative exponents?\n# {{power(0, -1)}}: ")
        assert sent[0].endswith("{code:python}\npower(2, -1)\n{code}\n\n_ticketsmith ref: q-1_")
    else:
        assert sent[0]["type"] == "doc"
        assert sent[0]["content"][1]["type"] == "orderedList"


async def test_both_flavours_see_the_same_comment(emulator: Emulator, version: int) -> None:
    other = 2 if version == 3 else 3
    async with client(emulator, version) as writer, client(emulator, other) as reader:
        await writer.add_comment("DEMO-2", MARKDOWN)
        assert [c.body for c in await reader.list_comments("DEMO-2")] == [MARKDOWN]


async def test_list_comments_follows_pages(jira: JiraClient, emulator: Emulator) -> None:
    for n in range(5):
        await jira.add_comment("DEMO-2", f"comment {n}")
    jira.page_size = 2
    comments = await jira.list_comments("DEMO-2")
    assert [c.body for c in comments] == [f"comment {n}" for n in range(5)]
    pages = [r for r in await emulator.requests() if r["method"] == "GET"]
    assert [r["query"]["startAt"] for r in pages] == ["0", "2", "4"]


async def test_transition_to(jira: JiraClient) -> None:
    assert await jira.transition_to("DEMO-1", "in review") is True
    assert (await jira.get_issue("DEMO-1")).status == "In Review"
    assert await jira.transition_to("DEMO-1", "In Review") is False
    with pytest.raises(ApplicationError) as caught:
        await jira.transition_to("DEMO-1", "Merged")
    assert caught.value.type == "JiraTransitionNotFound"
    assert caught.value.non_retryable
    assert "To Do" in caught.value.message and "Done" in caught.value.message


@pytest.mark.parametrize("field", [CRITERIA, "acceptance criteria"])
async def test_acceptance_criteria_field(emulator: Emulator, version: int, field: str) -> None:
    async with client(emulator, version, acceptance_criteria_field=field) as jira:
        issue = await jira.get_issue("DEMO-2")
        await jira.get_issue("DEMO-2")
    assert issue.acceptance_criteria.startswith("- `python -m calc add 0.1 0.2` prints `0.3`.\n")
    gets = [r for r in await emulator.requests() if r["method"] == "GET"]
    lookups = [r for r in gets if r["path"].endswith("/field")]
    assert len(lookups) == (0 if field == CRITERIA else 1)  # a name is resolved once
    assert gets[-1]["query"]["fields"].endswith(f",{CRITERIA}")


async def test_unknown_acceptance_criteria_field_is_a_clear_error(emulator: Emulator) -> None:
    async with client(emulator, 3, acceptance_criteria_field="Definition of done") as jira:
        with pytest.raises(ApplicationError) as caught:
            await jira.get_issue("DEMO-2")
    assert (caught.value.type, caught.value.non_retryable) == ("JiraFieldNotFound", True)
    assert "Definition of done" in caught.value.message


async def test_missing_issue_is_jira_not_found(jira: JiraClient) -> None:
    with pytest.raises(ApplicationError) as caught:
        await jira.get_issue("DEMO-404")
    assert caught.value.type == "JiraNotFound"
    assert caught.value.non_retryable
    assert "Issue does not exist or you do not have permission to see it." in caught.value.message


async def test_rate_limit_and_outage_are_retryable(
    jira: JiraClient, emulator: Emulator, version: int
) -> None:
    path = f"/rest/api/{version}/issue/DEMO-1/comment"
    await emulator.inject(path=path, method="POST", status_code=429, retry_after=3)
    with pytest.raises(ApplicationError) as limited:
        await jira.add_comment("DEMO-1", "hello")
    assert (limited.value.type, limited.value.non_retryable) == ("JiraRateLimited", False)
    assert limited.value.next_retry_delay == timedelta(seconds=3)
    await emulator.inject(path=path, method="POST", status_code=503)
    with pytest.raises(ApplicationError) as down:
        await jira.add_comment("DEMO-1", "hello")
    assert (down.value.type, down.value.non_retryable) == ("JiraUnavailable", False)
    assert "Service unavailable" in down.value.message
    assert (await jira.add_comment("DEMO-1", "hello")).body == "hello"
    assert len((await jira.get_issue("DEMO-1")).comments) == 1  # the faults had no effect


async def test_basic_and_bearer_auth_reach_the_emulator(emulator: Emulator, version: int) -> None:
    async with client(emulator, version, email="alice@example.com") as as_alice:
        by_alice = await as_alice.add_comment("DEMO-2", "from alice")
    async with client(emulator, version, email="") as with_token:
        by_token = await with_token.add_comment("DEMO-2", "with a personal access token")
    assert by_alice.author_id == "alice-1"
    assert by_token.author_id == "ticketsmith-bot"


async def test_auth_headers() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"transitions": []})

    transport = httpx.MockTransport(handler)
    async with JiraClient(BASE_URL, "", "pat-token", transport=transport) as bearer:
        await bearer.list_transitions("DEMO-1")
    async with JiraClient(BASE_URL, "me@example.com", "api-token", transport=transport) as basic:
        await basic.list_transitions("DEMO-1")
    assert seen[0].headers["Authorization"] == "Bearer pat-token"
    basic_credentials = base64.b64encode(b"me@example.com:api-token").decode()
    assert seen[1].headers["Authorization"] == f"Basic {basic_credentials}"


def test_only_versions_2_and_3() -> None:
    with pytest.raises(ValueError, match="2 or 3"):
        JiraClient(BASE_URL, "", "t", api_version=4)


async def test_fetch_activity_carries_acceptance_criteria(emulator: Emulator, version: int) -> None:
    async with client(emulator, version, acceptance_criteria_field=CRITERIA) as jira:
        ticket = await ActivityEnvironment().run(
            TrackerActivities(lambda _: jira).fetch_ticket, FetchTicketInput(key="DEMO-2")
        )
        plain = await ActivityEnvironment().run(
            TrackerActivities(lambda _: jira).fetch_ticket, FetchTicketInput(key="DEMO-1")
        )
    assert ticket.acceptance_criteria
    assert ticket.acceptance_criteria.startswith("- `python -m calc add 0.1 0.2` prints `0.3`.")
    # DEMO-1's field is empty; its description has an "## Acceptance criteria" section
    assert plain.acceptance_criteria
    assert plain.acceptance_criteria.startswith("1. `power(2, 3)` returns `8`")
    assert "## Acceptance criteria" not in plain.description
    assert "## Not decided yet" in plain.description


async def test_an_approvers_groups_and_the_reporter_are_looked_up(jira: JiraClient) -> None:
    assert await jira.user_groups("bob-2") == ["release-managers", "jira-software-users"]
    assert await jira.user_groups("erin-5") == []
    assert await jira.user_groups("nobody-0") == []  # an unknown user is in no group
    assert "alice-1" in await jira.reporter_ids("DEMO-1")
    facts = await ActivityEnvironment().run(
        TrackerActivities(lambda _: jira).look_up_approver,
        ApproverLookupInput(key="DEMO-1", author_ids=["bob-2"], groups=["Release-Managers", "x"]),
    )
    assert facts == ApproverFacts(is_reporter=False, member_of=["Release-Managers"])
    reporter = await ActivityEnvironment().run(
        TrackerActivities(lambda _: jira).look_up_approver,
        ApproverLookupInput(key="DEMO-1", author_ids=["alice-1"]),
    )
    assert reporter.is_reporter and reporter.member_of == []
