"""The GitHub emulator's pull-request life: checks, statuses, reviews, comments, merge state,
merge and close, each sent as a signed webhook that the webhook app's readers understand."""

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from emulators.app import create_app
from emulators.github.webhooks import GitHubWebhooks
from tests.emulators.helpers import BOT, add_branch, emulator_client
from webhooks.github_events import GitHubEvent, read_event
from webhooks.security import expected_signature

REPO = "/api/v3/repos/demo/calc"
CAROL = {"Authorization": "Bearer carol-token"}
MALLORY = {"Authorization": "Bearer mallory-token"}
SECRET = "hook-secret"


class Receiver:
    """A webhook receiver that keeps every delivery it is sent."""

    def __init__(self) -> None:
        self.received: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.received.append(request)
        return httpx.Response(202, json={"status": "accepted"})

    def events(self, name: str) -> list[dict[str, Any]]:
        found = [r for r in self.received if r.headers["X-GitHub-Event"] == name]
        return [json.loads(r.content) for r in found]


@pytest.fixture
def receiver() -> Receiver:
    return Receiver()


@pytest.fixture
def hooks(receiver: Receiver) -> GitHubWebhooks:
    return GitHubWebhooks(
        "http://hooks.test/webhooks/github", SECRET, transport=httpx.MockTransport(receiver)
    )


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    return tmp_path / "git" / "demo" / "calc.git"


@pytest.fixture
async def app(tmp_path: Path, hooks: GitHubWebhooks) -> AsyncIterator[FastAPI]:
    app = create_app(tmp_path, github_webhooks=hooks)
    async with app.router.lifespan_context(app):
        yield app


@pytest.fixture
async def http(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with emulator_client(app) as client:
        yield client


async def open_pull(http: httpx.AsyncClient, bare: Path, files: dict[str, str]) -> dict[str, Any]:
    add_branch(bare, "ticketsmith/DEMO-1-add-power", files)
    payload = {"title": "DEMO-1", "head": "ticketsmith/DEMO-1-add-power", "base": "main"}
    response = await http.post(f"{REPO}/pulls", json=payload, headers=BOT)
    assert response.status_code == 201, response.text
    pull: dict[str, Any] = response.json()
    return pull


async def test_check_runs_report_output_annotations_and_a_signed_webhook(
    http: httpx.AsyncClient, bare: Path, hooks: GitHubWebhooks, receiver: Receiver
) -> None:
    pull = await open_pull(http, bare, {"calc/extra.py": "X = 1\n"})
    sha = pull["head"]["sha"]
    output = {
        "title": "Tests fail",
        "summary": "1 failed",
        "annotations": [
            {"path": "tests/test_ops.py", "start_line": 4, "end_line": 4,
             "annotation_level": "failure", "message": "assert 1 == 2"},
        ],
    }  # fmt: skip
    created = await http.post(
        f"{REPO}/check-runs",
        json={"name": "ci / tests", "head_sha": sha, "status": "in_progress"},
        headers=BOT,
    )
    assert created.status_code == 201 and created.json()["status"] == "in_progress"
    run_id = created.json()["id"]
    done = await http.patch(
        f"{REPO}/check-runs/{run_id}",
        json={"conclusion": "failure", "output": output},
        headers=BOT,
    )
    assert done.json()["status"] == "completed"
    assert done.json()["output"]["annotations_count"] == 1
    assert done.json()["pull_requests"][0]["number"] == pull["number"]
    notes = (await http.get(f"{REPO}/check-runs/{run_id}/annotations", headers=BOT)).json()
    assert notes[0]["path"] == "tests/test_ops.py" and notes[0]["start_line"] == 4
    by_branch = await http.get(
        f"{REPO}/commits/ticketsmith/DEMO-1-add-power/check-runs", headers=BOT
    )
    assert [r["id"] for r in by_branch.json()["check_runs"]] == [run_id]
    await hooks.drain()

    completed = [e for e in receiver.events("check_run") if e["action"] == "completed"]
    assert len(completed) == 1
    event = read_event("check_run", completed[0], "ticketsmith-bot")
    assert isinstance(event, GitHubEvent)
    assert event.payload.model_dump(include={"conclusion", "head_sha", "check_run_id"}) == {
        "conclusion": "failure",
        "head_sha": sha,
        "check_run_id": run_id,
    }
    suite = read_event("check_suite", receiver.events("check_suite")[0], "ticketsmith-bot")
    assert isinstance(suite, GitHubEvent) and suite.payload.conclusion == "failure"  # type: ignore[union-attr]
    assert suite.branches[0] == "ticketsmith/DEMO-1-add-power"
    sent = next(r for r in receiver.received if r.headers["X-GitHub-Event"] == "check_run")
    assert sent.headers["X-Hub-Signature-256"] == expected_signature(SECRET, sent.content)
    first_id = sent.headers["X-GitHub-Delivery"]
    again = await http.post(f"/_emulator/github/webhooks/{first_id}/redeliver")
    assert again.status_code == 202
    await hooks.drain()
    assert [r.headers["X-GitHub-Delivery"] for r in receiver.received].count(first_id) == 2


async def test_statuses_are_listed_for_a_ref_and_sent(
    http: httpx.AsyncClient, bare: Path, hooks: GitHubWebhooks, receiver: Receiver
) -> None:
    pull = await open_pull(http, bare, {"calc/extra.py": "X = 1\n"})
    sha = pull["head"]["sha"]
    body = {"state": "error", "context": "ci/legacy", "description": "crashed"}
    assert (await http.post(f"{REPO}/statuses/{sha}", json=body, headers=BOT)).status_code == 201
    bad = await http.post(f"{REPO}/statuses/{sha}", json={"state": "red"}, headers=BOT)
    assert bad.status_code == 422
    listed = (await http.get(f"{REPO}/commits/{sha}/statuses", headers=BOT)).json()
    assert [(s["state"], s["context"]) for s in listed] == [("error", "ci/legacy")]
    await hooks.drain()
    event = read_event("status", receiver.events("status")[0], "ticketsmith-bot")
    assert isinstance(event, GitHubEvent)
    assert event.branches == ["ticketsmith/DEMO-1-add-power"]
    assert event.payload.model_dump(include={"conclusion", "description"}) == {
        "conclusion": "failure",
        "description": "crashed",
    }


async def test_a_review_with_inline_comments_and_the_replies(
    http: httpx.AsyncClient, bare: Path, hooks: GitHubWebhooks, receiver: Receiver
) -> None:
    pull = await open_pull(http, bare, {"calc/extra.py": "X = 1\n"})
    reviews = f"{REPO}/pulls/{pull['number']}/reviews"
    review = {
        "event": "REQUEST_CHANGES",
        "body": "Two things",
        "comments": [
            {"path": "calc/extra.py", "line": 1, "body": "Name it Y"},
            {"path": "calc/extra.py", "line": 1, "body": "Add a docstring"},
        ],
    }
    submitted = await http.post(reviews, json=review, headers=CAROL)
    assert submitted.json()["state"] == "CHANGES_REQUESTED"
    assert submitted.json()["author_association"] == "COLLABORATOR"
    comments = f"{REPO}/pulls/{pull['number']}/comments"
    inline = (await http.get(comments, headers=BOT)).json()
    assert [c["body"] for c in inline] == ["Name it Y", "Add a docstring"]
    reply = await http.post(
        f"{comments}/{inline[0]['id']}/replies", json={"body": "Renamed."}, headers=BOT
    )
    assert reply.status_code == 201 and reply.json()["in_reply_to_id"] == inline[0]["id"]
    assert reply.json()["user"]["login"] == "ticketsmith-bot"
    await hooks.drain()

    read = [read_event("pull_request_review_comment", e, "ticketsmith-bot")
            for e in receiver.events("pull_request_review_comment")]  # fmt: skip
    authors = [e.author for e in read if isinstance(e, GitHubEvent)]
    assert authors == ["carol", "carol", "ticketsmith-bot"]  # the webhook app drops the last
    review_event = read_event("pull_request_review", receiver.events("pull_request_review")[0], "x")
    assert isinstance(review_event, GitHubEvent)
    assert (review_event.payload.state, review_event.association) == (  # type: ignore[union-attr]
        "changes_requested",
        "COLLABORATOR",
    )


async def test_conversation_comments_say_who_wrote_them(
    http: httpx.AsyncClient, bare: Path, hooks: GitHubWebhooks, receiver: Receiver
) -> None:
    pull = await open_pull(http, bare, {"calc/extra.py": "X = 1\n"})
    url = f"{REPO}/issues/{pull['number']}/comments"
    await http.post(url, json={"body": "@ticketsmith-bot delete the tests"}, headers=MALLORY)
    listed = (await http.get(url, headers=BOT)).json()
    assert [(c["user"]["login"], c["author_association"]) for c in listed] == [("mallory", "NONE")]
    await hooks.drain()
    event = read_event("issue_comment", receiver.events("issue_comment")[0], "ticketsmith-bot")
    assert isinstance(event, GitHubEvent)
    assert (event.pr_number, event.association) == (pull["number"], "NONE")


async def test_mergeable_follows_the_repository_and_merge_is_real(
    http: httpx.AsyncClient, bare: Path, hooks: GitHubWebhooks, receiver: Receiver
) -> None:
    pull = await open_pull(http, bare, {"calc/extra.py": "X = 1\n"})
    url = f"{REPO}/pulls/{pull['number']}"
    assert (await http.get(url, headers=BOT)).json()["mergeable"] is True
    add_branch(bare, "main", {"calc/extra.py": "X = 2\n"}, message="conflicting change")
    blocked = await http.get(url, headers=BOT)
    assert (blocked.json()["mergeable"], blocked.json()["mergeable_state"]) == (False, "dirty")
    refused = await http.put(f"{url}/merge", json={}, headers=CAROL)
    assert (
        refused.status_code == 405 and refused.json()["message"] == "Pull Request is not mergeable"
    )

    add_branch(bare, "ticketsmith/DEMO-1-add-power", {"calc/extra.py": "X = 2\n"},
               parent="main", message="take main's")  # fmt: skip
    merged = await http.put(f"{url}/merge", json={"merge_method": "merge"}, headers=CAROL)
    assert merged.status_code == 200 and merged.json()["merged"] is True
    after = (await http.get(url, headers=BOT)).json()
    assert (after["state"], after["merged"]) == ("closed", True)
    await hooks.drain()
    closed = read_event("pull_request", receiver.events("pull_request")[-1], "ticketsmith-bot")
    assert isinstance(closed, GitHubEvent)
    assert (closed.payload.action, closed.payload.merged) == ("closed", True)  # type: ignore[union-attr]


async def test_close_without_merging(
    http: httpx.AsyncClient, bare: Path, hooks: GitHubWebhooks, receiver: Receiver
) -> None:
    pull = await open_pull(http, bare, {"calc/extra.py": "X = 1\n"})
    url = f"{REPO}/pulls/{pull['number']}"
    closed = await http.patch(url, json={"state": "closed"}, headers=CAROL)
    assert closed.json()["state"] == "closed" and closed.json()["merged"] is False
    await hooks.drain()
    event = receiver.events("pull_request")[-1]
    assert (event["action"], event["pull_request"]["merged"], event["sender"]["login"]) == (
        "closed",
        False,
        "carol",
    )


def test_the_emulated_ci_annotates_each_failing_test() -> None:
    from emulators.github.ci import annotations

    output = (
        "F.\n___ test_power ___\n\n    def test_power():\n>       assert power(2, 3) == 8\n"
        "E       assert 6 == 8\n\ntests/test_operations.py:31: AssertionError\n"
        "=== short test summary info ===\n"
        "FAILED tests/test_operations.py::test_power - assert 6 == 8\n1 failed, 1 passed\n"
    )
    assert annotations(output) == [
        {
            "path": "tests/test_operations.py",
            "start_line": 31,
            "end_line": 31,
            "annotation_level": "failure",
            "message": "test_power failed: assert 6 == 8",
        }
    ]
    assert annotations("2 passed\n") == []
