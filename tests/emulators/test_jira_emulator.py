"""The Jira emulator answers with the shapes, codes and errors of Jira's REST API."""

import base64
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from tests.emulators.helpers import BOT, emulator_client, new_emulator

ALICE = {"Authorization": "Basic " + base64.b64encode(b"alice@example.com:tok").decode()}
NOT_FOUND = {
    "errorMessages": ["Issue does not exist or you do not have permission to see it."],
    "errors": {},
}


def adf(text: str) -> dict:
    return {
        "type": "doc",
        "version": 1,
        "content": [{"type": "paragraph", "content": [{"type": "text", "text": text}]}],
    }


@pytest.fixture
async def http(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    async with emulator_client(new_emulator(tmp_path)) as client:
        yield client


async def test_issue_has_jira_cloud_shape(http: httpx.AsyncClient) -> None:
    response = await http.get("/rest/api/3/issue/DEMO-1")
    assert response.status_code == 200
    issue = response.json()
    assert issue["key"] == "DEMO-1"
    assert issue["self"] == f"http://emulator.test/rest/api/3/issue/{issue['id']}"
    fields = issue["fields"]
    assert fields["summary"] == "Add a power operation to the calculator"
    assert fields["description"]["type"] == "doc"
    assert fields["description"]["content"][1] == {
        "type": "heading",
        "attrs": {"level": 2},
        "content": [{"type": "text", "text": "What we need"}],
    }
    assert fields["labels"] == ["calculator", "good-first-issue"]
    assert fields["status"]["name"] == "To Do"
    assert fields["reporter"]["accountId"] == "alice-1"
    assert fields["issuetype"]["name"] == "Story"
    assert fields["project"]["key"] == "DEMO"
    assert fields["comment"] == fields["comment"] | {"comments": [], "total": 0}


async def test_fields_parameter_limits_the_fields(http: httpx.AsyncClient) -> None:
    issue = (await http.get("/rest/api/3/issue/demo-2", params={"fields": "status"})).json()
    assert issue["key"] == "DEMO-2"
    assert list(issue["fields"]) == ["status"]


async def test_unknown_issue_is_jira_404(http: httpx.AsyncClient) -> None:
    response = await http.get("/rest/api/3/issue/DEMO-99")
    assert response.status_code == 404
    assert response.json() == NOT_FOUND
    response = await http.post(
        "/rest/api/3/issue/DEMO-99/comment", json={"body": adf("x")}, headers=BOT
    )
    assert response.status_code == 404


async def test_comment_author_follows_credentials(http: httpx.AsyncClient) -> None:
    url = "/rest/api/3/issue/DEMO-1/comment"
    as_bot = await http.post(url, json={"body": adf("from the bot")}, headers=BOT)
    as_alice = await http.post(url, json={"body": adf("from alice")}, headers=ALICE)
    as_bob = await http.post(
        url, json={"body": adf("from bob")}, headers={"X-Emulator-User": "bob-2"}
    )
    assert [r.status_code for r in (as_bot, as_alice, as_bob)] == [201, 201, 201]
    assert as_bot.json()["author"]["accountId"] == "ticketsmith-bot"
    assert as_alice.json()["author"] == as_alice.json()["author"] | {
        "accountId": "alice-1",
        "displayName": "Alice Reporter",
    }
    assert as_bob.json()["author"]["accountId"] == "bob-2"
    comment = as_bot.json()
    assert comment["body"] == adf("from the bot")
    assert comment["self"].endswith(f"/comment/{comment['id']}")
    assert set(comment) >= {"id", "self", "author", "body", "created", "updated"}
    issue = (await http.get("/rest/api/3/issue/DEMO-1")).json()
    assert issue["fields"]["comment"]["total"] == 3


async def test_comment_needs_auth_and_an_adf_body(http: httpx.AsyncClient) -> None:
    url = "/rest/api/3/issue/DEMO-1/comment"
    anonymous = await http.post(url, json={"body": adf("x")})
    assert anonymous.status_code == 401
    assert anonymous.json()["errorMessages"]
    as_string = await http.post(url, json={"body": "plain text"}, headers=BOT)
    assert as_string.status_code == 400
    assert "Atlassian Document" in as_string.json()["errors"]["comment"]
    empty = await http.post(url, json={"body": adf("  ")}, headers=BOT)
    assert empty.status_code == 400
    assert empty.json()["errors"] == {"comment": "Comment body can not be empty!"}


async def test_comments_page_with_start_at_and_max_results(http: httpx.AsyncClient) -> None:
    url = "/rest/api/3/issue/DEMO-1/comment"
    for n in range(5):
        await http.post(url, json={"body": adf(f"comment {n}")}, headers=BOT)
    page = (await http.get(url, params={"startAt": 3, "maxResults": 2})).json()
    assert (page["startAt"], page["maxResults"], page["total"]) == (3, 2, 5)
    texts = [c["body"]["content"][0]["content"][0]["text"] for c in page["comments"]]
    assert texts == ["comment 3", "comment 4"]


async def test_transitions_move_through_the_workflow(http: httpx.AsyncClient) -> None:
    url = "/rest/api/3/issue/DEMO-1/transitions"
    transitions = (await http.get(url)).json()["transitions"]
    assert [(t["id"], t["name"], t["to"]["name"]) for t in transitions] == [
        ("21", "In Progress", "In Progress"),
        ("31", "In Review", "In Review"),
        ("41", "Done", "Done"),
    ]
    moved = await http.post(url, json={"transition": {"id": "31"}}, headers=BOT)
    assert moved.status_code == 204
    issue = (await http.get("/rest/api/3/issue/DEMO-1")).json()
    assert issue["fields"]["status"]["name"] == "In Review"
    assert "31" not in [t["id"] for t in (await http.get(url)).json()["transitions"]]


async def test_invalid_transition_is_400(http: httpx.AsyncClient) -> None:
    url = "/rest/api/3/issue/DEMO-1/transitions"
    response = await http.post(url, json={"transition": {"id": "99"}}, headers=BOT)
    assert response.status_code == 400
    assert response.json() == {
        "errorMessages": ["Transition id '99' is not valid for this issue."],
        "errors": {},
    }


async def test_v2_uses_wiki_markup_bodies(http: httpx.AsyncClient) -> None:
    issue = (await http.get("/rest/api/2/issue/DEMO-1")).json()
    description = issue["fields"]["description"]
    assert "h2. What we need" in description
    assert "* A function {{power(base, exponent)}} in {{calc/operations.py}}" in description
    assert (
        issue["fields"]["reporter"] | {"name": "alice-1", "key": "alice-1"}
        == (issue["fields"]["reporter"])
    )
    posted = await http.post(
        "/rest/api/2/issue/DEMO-2/comment", json={"body": "Looks *good*"}, headers=BOT
    )
    assert posted.status_code == 201
    assert posted.json()["body"] == "Looks *good*"
    as_v3 = (await http.get("/rest/api/3/issue/DEMO-2/comment")).json()["comments"]
    assert as_v3[0]["body"]["content"][0]["content"][1] == {
        "type": "text",
        "text": "good",
        "marks": [{"type": "strong"}],
    }
    as_adf = await http.post(
        "/rest/api/2/issue/DEMO-2/comment", json={"body": adf("x")}, headers=BOT
    )
    assert as_adf.json()["errors"] == {"comment": "Operation value must be a string"}
    assert (await http.get("/rest/api/4/issue/DEMO-2")).status_code == 404


async def test_custom_fields_and_field_list(http: httpx.AsyncClient) -> None:
    fields = (await http.get("/rest/api/3/field")).json()
    assert {"id": "customfield_10035", "key": "customfield_10035", "name": "Acceptance criteria",
            "custom": True} in fields  # fmt: skip
    assert {"id": "summary", "key": "summary", "name": "Summary", "custom": False} in fields
    v3 = await http.get("/rest/api/3/issue/DEMO-2", params={"fields": "customfield_10035"})
    assert v3.json()["fields"]["customfield_10035"]["type"] == "doc"
    v2 = (await http.get("/rest/api/2/issue/DEMO-2")).json()["fields"]["customfield_10035"]
    assert v2.startswith("* {{python -m calc add 0.1 0.2}} prints {{0.3}}.\n* Whole numbers")


async def test_edit_labels(http: httpx.AsyncClient) -> None:
    url = "/rest/api/3/issue/DEMO-1"
    added = await http.put(url, json={"update": {"labels": [{"add": "ticketsmith"}]}}, headers=BOT)
    assert added.status_code == 204
    labels = (await http.get(url)).json()["fields"]["labels"]
    assert labels == ["calculator", "good-first-issue", "ticketsmith"]
    await http.put(
        url, json={"update": {"labels": [{"remove": "calculator"}, {"add": "x"}]}}, headers=BOT
    )
    await http.put(url, json={"fields": {"labels": ["only", "only"]}}, headers=BOT)
    assert (await http.get(url)).json()["fields"]["labels"] == ["only"]
    spaced = await http.put(url, json={"fields": {"labels": ["two words"]}}, headers=BOT)
    assert spaced.status_code == 400
    assert "contains spaces" in spaced.json()["errors"]["labels"]
    unknown = await http.put(url, json={"fields": {"priority": {"name": "High"}}}, headers=BOT)
    assert unknown.status_code == 400
    assert "cannot be set" in unknown.json()["errors"]["priority"]
    anonymous = await http.put(url, json={"fields": {"labels": []}})
    assert anonymous.status_code == 401
