"""The GitHub emulator: REST v3 shapes and validation over real bare repositories."""

import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from tests.emulators.helpers import BOT, add_branch, emulator_client, new_emulator

PULLS = "/api/v3/repos/demo/calc/pulls"


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    return tmp_path / "git" / "demo" / "calc.git"


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return new_emulator(tmp_path)


@pytest.fixture
async def http(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with emulator_client(app) as client:
        yield client


def pr_payload(head: str, **extra: object) -> dict[str, object]:
    return {"title": "Add power", "body": "Closes DEMO-1", "head": head, "base": "main"} | extra


async def test_repository(http: httpx.AsyncClient) -> None:
    repo = (await http.get("/api/v3/repos/demo/calc", headers=BOT)).json()
    assert repo["full_name"] == "demo/calc"
    assert repo["default_branch"] == "main"
    assert repo["clone_url"] == "http://emulator.test/demo/calc.git"
    assert repo["owner"]["login"] == "demo"


async def test_unknown_repository_and_missing_token(http: httpx.AsyncClient) -> None:
    missing = await http.get("/api/v3/repos/demo/nope", headers=BOT)
    assert missing.status_code == 404
    assert missing.json()["message"] == "Not Found"
    assert "documentation_url" in missing.json()
    anonymous = await http.get("/api/v3/repos/demo/calc")
    assert anonymous.status_code == 401
    assert anonymous.json()["message"] == "Requires authentication"


async def test_create_pull_request(http: httpx.AsyncClient, bare: Path) -> None:
    sha = add_branch(bare, "ticketsmith/DEMO-1", {"calc/power.py": "x = 1\n"})
    response = await http.post(
        PULLS, json=pr_payload("ticketsmith/DEMO-1", draft=True), headers=BOT
    )
    assert response.status_code == 201
    pr = response.json()
    assert (pr["number"], pr["state"], pr["draft"], pr["merged"]) == (1, "open", True, False)
    assert pr["html_url"] == "http://emulator.test/demo/calc/pull/1"
    assert pr["url"] == "http://emulator.test/api/v3/repos/demo/calc/pulls/1"
    assert pr["head"]["ref"] == "ticketsmith/DEMO-1"
    assert pr["head"]["sha"] == sha
    assert pr["head"]["label"] == "demo:ticketsmith/DEMO-1"
    assert pr["base"]["ref"] == "main"
    assert pr["user"]["login"]
    assert pr["mergeable"] is True  # computed from the bare repository
    assert (await http.get(f"{PULLS}/1", headers=BOT)).json()["title"] == "Add power"


async def test_second_pull_request_for_a_head_is_422(http: httpx.AsyncClient, bare: Path) -> None:
    add_branch(bare, "feature", {"a.txt": "a\n"})
    assert (await http.post(PULLS, json=pr_payload("feature"), headers=BOT)).status_code == 201
    again = await http.post(PULLS, json=pr_payload("demo:feature"), headers=BOT)
    assert again.status_code == 422
    body = again.json()
    assert body["message"] == "Validation Failed"
    assert body["errors"] == [
        {
            "resource": "PullRequest",
            "code": "custom",
            "message": "A pull request already exists for demo:feature.",
        }
    ]


async def test_head_must_exist_and_differ_from_base(http: httpx.AsyncClient, bare: Path) -> None:
    missing = await http.post(PULLS, json=pr_payload("no-such-branch"), headers=BOT)
    assert missing.status_code == 422
    assert missing.json()["errors"] == [
        {"resource": "PullRequest", "field": "head", "code": "invalid"}
    ]
    subprocess.run(
        ["git", "--git-dir", str(bare), "branch", "at-main", "main"],
        check=True,
        capture_output=True,
    )
    nothing = await http.post(PULLS, json=pr_payload("at-main"), headers=BOT)
    assert nothing.status_code == 422
    assert nothing.json()["errors"][0]["message"] == "No commits between main and at-main"
    no_title = await http.post(PULLS, json=pr_payload("at-main", title=""), headers=BOT)
    assert no_title.status_code == 422
    assert no_title.json()["errors"][0]["field"] == "title"


async def test_list_filters_by_head_and_state(
    app: FastAPI, http: httpx.AsyncClient, bare: Path
) -> None:
    for branch in ("one", "two"):
        add_branch(bare, branch, {f"{branch}.txt": branch})
        await http.post(PULLS, json=pr_payload(branch), headers=BOT)
    only_two = (await http.get(PULLS, params={"head": "demo:two"}, headers=BOT)).json()
    assert [p["head"]["ref"] for p in only_two] == ["two"]
    assert (await http.get(PULLS, params={"head": "other:two"}, headers=BOT)).json() == []
    app.state.emulator.data["pulls"][1]["state"] = "closed"
    assert [p["number"] for p in (await http.get(PULLS, headers=BOT)).json()] == [1]
    everything = await http.get(PULLS, params={"state": "all"}, headers=BOT)
    assert [p["number"] for p in everything.json()] == [2, 1]


async def test_open_pull_request_follows_its_branch(http: httpx.AsyncClient, bare: Path) -> None:
    add_branch(bare, "moving", {"a.txt": "1"})
    await http.post(PULLS, json=pr_payload("moving"), headers=BOT)
    newer = add_branch(bare, "moving", {"a.txt": "2"}, parent="moving")
    assert (await http.get(f"{PULLS}/1", headers=BOT)).json()["head"]["sha"] == newer


async def test_comments_labels_and_page(http: httpx.AsyncClient, bare: Path) -> None:
    add_branch(bare, "feature", {"a.txt": "a\n"})
    await http.post(PULLS, json=pr_payload("feature", title="Add <power>"), headers=BOT)
    comment = await http.post(
        "/api/v3/repos/demo/calc/issues/1/comments", json={"body": "Tests pass"}, headers=BOT
    )
    assert comment.status_code == 201
    assert comment.json()["html_url"].startswith(
        "http://emulator.test/demo/calc/pull/1#issuecomment-"
    )
    labels = await http.post(
        "/api/v3/repos/demo/calc/issues/1/labels", json={"labels": ["ticketsmith"]}, headers=BOT
    )
    assert [label["name"] for label in labels.json()] == ["ticketsmith"]
    page = await http.get("/demo/calc/pull/1")
    assert page.status_code == 200
    assert "Add &lt;power&gt;" in page.text
    assert "Tests pass" in page.text
    assert (await http.get("/demo/calc/pull/2")).status_code == 404
    missing = await http.post(
        "/api/v3/repos/demo/calc/issues/2/comments", json={"body": "x"}, headers=BOT
    )
    assert missing.status_code == 404


async def test_invalid_json_is_400(http: httpx.AsyncClient) -> None:
    response = await http.post(
        PULLS, content=b"{not json", headers=BOT | {"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["message"] == "Problems parsing JSON"


async def test_a_head_filter_needs_its_owner_as_on_github(
    http: httpx.AsyncClient, bare: Path
) -> None:
    for branch in ("ticketsmith/DEMO-1", "ticketsmith/DEMO-2"):
        add_branch(bare, branch, {"calc/power.py": f"# {branch}\n"})
        (await http.post(PULLS, json=pr_payload(branch), headers=BOT)).raise_for_status()

    async def heads(head: str) -> list[str]:
        found = (await http.get(PULLS, params={"head": head}, headers=BOT)).json()
        return sorted(pr["head"]["ref"] for pr in found)

    assert await heads("demo:ticketsmith/DEMO-1") == ["ticketsmith/DEMO-1"]
    assert await heads("ticketsmith/DEMO-1") == ["ticketsmith/DEMO-1", "ticketsmith/DEMO-2"]
    assert await heads("someone-else:ticketsmith/DEMO-1") == []
