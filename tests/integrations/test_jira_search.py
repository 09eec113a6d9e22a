"""Issue search and the issue fields research reads (id, assignee, type), both API flavours."""

import pytest

from integrations.jira.client import JiraClient
from tests.integrations.conftest import Emulator


@pytest.fixture(params=[3, 2], ids=["cloud-v3", "server-v2"])
def version(request: pytest.FixtureRequest) -> int:
    return int(request.param)


async def test_issue_carries_id_assignee_and_type(emulator: Emulator, version: int) -> None:
    async with JiraClient(
        emulator.base_url, "a@example.com", "t", version, emulator.transport
    ) as jira:
        issue = await jira.get_issue("PAY-3")
        unassigned = await jira.get_issue("DEMO-1")
    assert (issue.id, issue.assignee, issue.issue_type) == ("10005", "Erin Park", "Bug")
    assert unassigned.assignee == ""


async def test_text_search_ranks_issues_sharing_most_words(
    emulator: Emulator, version: int
) -> None:
    async with JiraClient(
        emulator.base_url, "a@example.com", "t", version, emulator.transport
    ) as jira:
        found = await jira.search_issues('text ~ "sandbox consumer refund" AND project = PAY', 3)
        demo = await jira.search_issues('project = "DEMO"')
    assert found[0].key == "PAY-3"
    assert all(issue.key.startswith("PAY-") for issue in found)
    assert {issue.key for issue in demo} == {"DEMO-1", "DEMO-2"}


async def test_jql_beyond_the_subset_is_refused_saying_so(emulator: Emulator) -> None:
    async with JiraClient(emulator.base_url, "a@example.com", "t", 3, emulator.transport) as jira:
        with pytest.raises(Exception, match="does not understand 'assignee = bob'"):
            await jira.search_issues("assignee = bob")
