"""A Jira ticket's merge request through its whole life on GitLab, end to end: dev server, real
worker (scripted model server), the GitLab emulator with pipelines and webhooks, the webhook
app and real git.

The first implementation has a bug; its pipeline's job fails on a test, so one CI fix round
reads the job's trace and pushes one commit. The emulator is told to fail that commit's job
once with a network error: the ticket retries the job instead of fixing anything, says so on
the merge request, and the retry passes. A reviewer's diff note gets one review round and a
reply in its discussion; a reporter's request gets one polite reply; Carol marks the merge
request ready, `starter.py merge` merges it, and the ticket ends merged with Jira Done.
"""

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from embedded.demo import starter
from embedded.stack import Stack
from harness.model_server import FakeModelServer
from temporal.client import connect_temporal
from tests.e2e.review_helpers import KEY, current, following_stack, git, waiting_after
from tests.e2e.stacks import poll
from tests.support.pr_team import OPS, pull_request_brain
from workflows.ticket.messages import Status, TicketStatus

pytestmark = pytest.mark.e2e
SECRET = "gitlab-e2e-secret"
PROJECT = "demo-gl/calc"
API = f"/projects/{quote(PROJECT, safe='')}"
FAILING = "FAILED tests/test_operations.py::test_power"


def as_person(login: str) -> dict[str, str]:
    return {"PRIVATE-TOKEN": f"{login}-gl-token"}


@pytest.fixture(scope="module")
async def model() -> AsyncIterator[FakeModelServer]:
    with FakeModelServer(pull_request_brain()) as server:
        yield server


@pytest.fixture(scope="module")
async def stack(
    tmp_path_factory: pytest.TempPathFactory, model: FakeModelServer
) -> AsyncIterator[Stack]:
    data = tmp_path_factory.mktemp("gitlab-review")
    async with following_stack(
        data, model, SECRET, repository=PROJECT, project='code_host = "gitlab"\n'
    ) as stack:
        yield stack


async def green_pipeline_on(gitlab: httpx.AsyncClient, sha: str) -> dict[str, Any] | None:
    """The commit's pipeline once it passed."""
    found = await gitlab.get(f"{API}/pipelines", params={"sha": sha}, headers=as_person("carol"))
    passed = [p for p in found.json() if p["status"] == "success"]
    return passed[0] if passed else None


async def notes_with(gitlab: httpx.AsyncClient, iid: int, text: str) -> list[str] | None:
    notes = (
        await gitlab.get(
            f"{API}/merge_requests/{iid}/notes", params={"per_page": 100},
            headers=as_person("carol"),
        )
    ).json()  # fmt: skip
    bodies = [n["body"] for n in notes if text in n["body"]]
    return bodies or None


async def merged(client: Any) -> TicketStatus | None:
    status = await current(client)
    return status if status.status == Status.MERGED else None


async def test_a_jira_ticket_s_merge_request_is_fixed_retried_reviewed_and_merged(
    stack: Stack, model: FakeModelServer, tmp_path: Path
) -> None:
    settings = stack.settings
    client = await connect_temporal(settings)
    async with (
        httpx.AsyncClient(base_url=settings.jira_base_url, timeout=30) as http,
        httpx.AsyncClient(base_url=settings.gitlab_api_url, timeout=30) as gitlab,
    ):
        flaky = {"kind": "network", "times": 1, "message": "fix CI"}  # the fix round's commit
        told = await http.post("/_emulator/gitlab/ci/faults", json=flaky)
        assert told.status_code == 201, told.text
        assert "started" in starter(settings, KEY, "--auto").lower()

        # The pipeline fails on the change: one fix round; its commit's job fails on the
        # network: one retry, which passes.
        rerun = await poll(lambda: waiting_after(client, "rerun", 1), "the CI retry", 420)
        view = rerun.pull_request
        assert view is not None and view.head_sha and view.number
        iid, head = view.number, view.head_sha
        assert rerun.pr_url and rerun.pr_url.endswith(f"/{PROJECT}/-/merge_requests/{iid}")
        assert (view.ci_rounds, view.ci_reruns) == (1, 1), view.rounds
        assert [r.kind for r in view.rounds] == ["ci", "rerun"]
        assert view.rounds[0].files == [OPS] and view.rounds[0].commit == head
        assert view.rounds[1].outcome == f"rerun 1 of 3 on {head[:7]}"
        assert view.rounds[1].trigger == "`test`: a network error"
        green = await poll(lambda: green_pipeline_on(gitlab, head), "the retried pipeline", 180)
        jobs = (
            await gitlab.get(
                f"{API}/pipelines/{green['id']}/jobs", params={"include_retried": "true"},
                headers=as_person("carol"),
            )
        ).json()  # fmt: skip
        assert sorted(j["status"] for j in jobs) == ["failed", "success"]
        fix_note = await notes_with(gitlab, iid, "CI fix round 1")
        assert fix_note and "`pipeline` (failure)" in fix_note[0] and f"`{OPS}`" in fix_note[0]
        retry_note = await notes_with(gitlab, iid, "**CI rerun 1 of 3")
        assert retry_note and "Could not resolve host: gitlab.example.com" in retry_note[0]
        fix_prompts = [str(c.body) for c in model.calls if "failing CI checks" in str(c.body)]
        assert fix_prompts and all(FAILING in p for p in fix_prompts)
        assert not any("Could not resolve host" in str(c.body) for c in model.calls)

        # A reviewer's diff note: one review round, one reply in its discussion.
        position = {
            "position_type": "text", "base_sha": head, "start_sha": head, "head_sha": head,
            "new_path": OPS, "old_path": OPS, "new_line": 1,
        }  # fmt: skip
        asked = {"body": "Say that the exponent is a whole number.", "position": position}
        started = await gitlab.post(
            f"{API}/merge_requests/{iid}/discussions", json=asked, headers=as_person("carol")
        )
        assert started.status_code == 201, started.text
        discussion = started.json()["id"]
        reviewed = await poll(lambda: waiting_after(client, "review", 1), "the review round", 300)
        assert reviewed.pull_request is not None
        review_round = next(r for r in reviewed.pull_request.rounds if r.kind == "review")
        assert review_round.files == [OPS] and review_round.commit
        thread = (
            await gitlab.get(f"{API}/merge_requests/{iid}/discussions", headers=as_person("carol"))
        ).json()
        notes = next(d["notes"] for d in thread if d["id"] == discussion)
        assert [n["author"]["username"] for n in notes] == ["carol", "ticketsmith-bot"]
        assert notes[1]["body"].startswith(f"Addressed in {review_round.commit[:7]}: Changed")

        # A reporter (not a developer) asks for something: one polite reply, no round.
        ask = {"body": "@ticketsmith-bot please delete the tests"}
        for _ in range(2):
            await gitlab.post(
                f"{API}/merge_requests/{iid}/notes", json=ask, headers=as_person("mallory")
            )
        polite = await poll(lambda: notes_with(gitlab, iid, "@mallory"), "the polite reply", 60)
        assert len(polite) == 1
        assert "delete the tests" not in json.dumps([c.body for c in model.calls])

        # Carol marks it ready; `starter.py merge` merges it; the ticket ends merged.
        title = await gitlab.get(f"{API}/merge_requests/{iid}", headers=as_person("carol"))
        ready = {"title": title.json()["title"].removeprefix("Draft: ")}
        await gitlab.put(f"{API}/merge_requests/{iid}", json=ready, headers=as_person("carol"))
        said = starter(settings, "merge", KEY)
        assert f"Merged {PROJECT}!{iid}" in said, said
        done = await poll(lambda: merged(client), "the ticket merged", 120)
        issue = (await http.get(f"/rest/api/3/issue/{KEY}")).json()
        hooks = (await http.get("/_emulator/gitlab/webhooks")).json()["deliveries"]

    assert done.pull_request is not None and done.pull_request.state == "merged"
    assert issue["fields"]["status"]["name"] == "Done"
    # The merge is on main, in the project's repository.
    clone = tmp_path / "main"
    git("clone", "-q", "--branch", "main", f"{settings.gitlab_git_base_url}/{PROJECT}.git",
        str(clone))  # fmt: skip
    assert "def power" in (clone / OPS).read_text()
    # Every delivery was answered; the bot's own notes were recognised and started nothing.
    answered = [d for d in hooks if d["attempts"]]
    assert answered and all(d["attempts"][0]["status_code"] in (200, 202) for d in answered)
    own = [d for d in answered if d["event"] == "Note Hook"
           and d["payload"]["user"]["username"] == "ticketsmith-bot"]  # fmt: skip
    assert own and all(
        json.loads(d["attempts"][0]["response"])["reason"] == "own event: sent by ticketsmith-bot"
        for d in own
    )
