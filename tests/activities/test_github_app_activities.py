"""The worker's activities with a GitHub App configured, against the emulator over HTTP: the
ticket branch pushed and its pull request opened with installation tokens the test expires
in between; no token in any activity input or result."""

from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from fastapi import FastAPI
from pydantic import SecretStr

from activities.messages import (
    CommitFilesInput,
    OpenPullRequestInput,
    PrepareRepositoryInput,
    RepoRef,
)
from config import Settings
from graphs.schemas import FileChange
from harness.serving import serve
from tests.emulators.helpers import emulator_client, new_emulator
from tests.support.github_app import APP_ID, expire_tokens, install_app, private_pem
from worker import build_activities

KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture
def emulator(tmp_path: Path) -> Iterator[tuple[FastAPI, str]]:
    app = new_emulator(tmp_path / "emulator")
    with serve(app) as url:
        yield app, url


def by_name(activities: list[Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    return {fn.__name__: fn for fn in activities}


async def test_a_branch_pushed_and_a_pull_request_opened_as_the_app(
    emulator: tuple[FastAPI, str], tmp_path: Path
) -> None:
    app, url = emulator
    await install_app(app, KEY)
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        github_api_url=f"{url}/api/v3",
        git_base_url=url,
        github_app_id=APP_ID,
        github_app_private_key=SecretStr(private_pem(KEY)),
        data_dir=tmp_path / "data",
        model_provider="offline",
    )
    repo = RepoRef(
        workflow_id="ticket-DEMO-7", repository="demo/calc", clone_url=f"{url}/demo/calc.git",
        branch="ticketsmith/DEMO-7-app", base_branch="main",
    )  # fmt: skip
    async with AsyncExitStack() as stack:
        found = by_name(list(build_activities(settings, stack).services))
        prepared = await found["prepare_repository"](
            PrepareRepositoryInput(repo=repo, key="DEMO-7", summary="app")
        )
        assert prepared.branch == repo.branch
        await expire_tokens(app)
        change = FileChange(path="NOTES.md", content="made by the app\n")
        committed = await found["commit_files"](
            CommitFilesInput(repo=repo, files=[change], message="DEMO-7: notes")
        )
        assert committed.changed
        await expire_tokens(app)
        opened = await found["open_pull_request"](
            OpenPullRequestInput(
                repository="demo/calc",
                head=repo.branch,
                base="main",
                title="DEMO-7: notes",
                body="By the app",
            )  # fmt: skip
        )
    async with emulator_client(app) as http:
        log = (await http.get("/_emulator/requests")).json()
        pr = (await http.get(f"/api/v3/repos/demo/calc/pulls/{opened.number}",
                             headers={"Authorization": "Bearer t"})).json()  # fmt: skip
    assert pr["head"]["sha"] == committed.sha
    exchanges = [r for r in log if r["path"].endswith("/access_tokens")]
    assert len(exchanges) == 3  # the first token, then one after each expiry
    refused = [(r["method"], r["path"]) for r in log if r["status_code"] == 401]
    # Each stale token refused once, by git's fetch and by the API, then renewed.
    assert refused == [
        ("GET", "/demo/calc.git/info/refs"),
        ("GET", "/api/v3/repos/demo/calc/pulls"),
    ]
    inputs = [repo, prepared, committed, opened]
    assert not any("ghs_" in item.model_dump_json() for item in inputs)
