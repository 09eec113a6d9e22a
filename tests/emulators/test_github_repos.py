"""The GitHub emulator's user repositories: GET /user, POST /user/repos, and our client's
find-or-create over them."""

import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from integrations.github.client import GitHubClient
from integrations.github.repos import authenticated_login, ensure_user_repository
from tests.emulators.helpers import BOT, emulator_client, new_emulator


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return new_emulator(tmp_path)


@pytest.fixture
async def http(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with emulator_client(app) as client:
        yield client


async def test_create_repository_with_initial_commit(
    http: httpx.AsyncClient, tmp_path: Path
) -> None:
    created = await http.post(
        "/api/v3/user/repos",
        json={"name": "todo-app", "description": "A todo app", "auto_init": True},
        headers=BOT,
    )
    assert created.status_code == 201, created.text
    repo = created.json()
    assert repo["full_name"] == "ticketsmith-bot/todo-app"
    assert repo["clone_url"] == "http://emulator.test/ticketsmith-bot/todo-app.git"
    assert repo["default_branch"] == "main" and repo["private"] is False
    bare = tmp_path / "git" / "ticketsmith-bot" / "todo-app.git"
    files = subprocess.run(
        ["git", "--git-dir", str(bare), "ls-tree", "--name-only", "main"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert files.stdout.split() == ["README.md"]
    found = await http.get("/api/v3/repos/ticketsmith-bot/todo-app", headers=BOT)
    assert found.status_code == 200

    again = await http.post("/api/v3/user/repos", json={"name": "todo-app"}, headers=BOT)
    assert again.status_code == 422
    assert again.json()["errors"][0]["message"] == "name already exists on this account"


async def test_refusals(http: httpx.AsyncClient) -> None:
    nameless = await http.post("/api/v3/user/repos", json={}, headers=BOT)
    assert nameless.status_code == 422
    assert nameless.json()["errors"] == [
        {"resource": "Repository", "field": "name", "code": "missing_field"}
    ]
    bad = await http.post("/api/v3/user/repos", json={"name": "a b"}, headers=BOT)
    assert bad.status_code == 422
    anonymous = await http.post("/api/v3/user/repos", json={"name": "x"})
    assert anonymous.status_code == 401
    user = await http.get("/api/v3/user", headers=BOT)
    assert user.json()["login"] == "ticketsmith-bot"


async def test_client_finds_or_creates(app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=app)
    github = GitHubClient("http://emulator.test/api/v3", "token", transport=transport)
    try:
        assert await authenticated_login(github) == "ticketsmith-bot"
        first = await ensure_user_repository(github, "notes", "Notes")
        second = await ensure_user_repository(github, "notes", "Notes")
    finally:
        await github.aclose()
    assert first == second
    assert first.full_name == "ticketsmith-bot/notes"
