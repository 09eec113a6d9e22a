"""`starter.py merge` and `close` on a ticket whose code is on GitLab: against the GitLab
emulator over real HTTP, the ticket's status standing in for its workflow."""

from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

import cli.pull_requests
from cli.commands import CommandError
from cli.pull_requests import close, merge
from config import Settings
from tests.emulators.gitlab_served import CAROL, PROJECT, served
from workflows.ticket.messages import Phase, Status, TicketStatus


def on_merge_request(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    """The ticket's status names the merge request at `url`."""

    async def status(settings: Settings, key: str) -> TicketStatus:
        return TicketStatus(key=key, phase=Phase.REVIEW, status=Status.AWAITING_REVIEW,
                            pr_url=url)  # fmt: skip

    monkeypatch.setattr(cli.pull_requests, "status", status)


def gitlab_settings(url: str) -> Settings:
    return Settings(gitlab_api_url=f"{url}/api/v4", gitlab_token=SecretStr("carol-gl-token"))


async def test_a_draft_is_refused_and_a_ready_merge_request_merged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with served(tmp_path) as emulator:
        mr: dict[str, Any] = emulator.open_mr()
        on_merge_request(monkeypatch, mr["web_url"])
        settings = gitlab_settings(emulator.url)
        with pytest.raises(CommandError) as draft:
            await merge(settings, "DEMO-1")
        assert "is a draft; mark it ready in GitLab" in str(draft.value)
        ready = {"title": mr["title"].removeprefix("Draft: ")}
        emulator.http.put(f"{PROJECT}/merge_requests/{mr['iid']}", json=ready, headers=CAROL)
        said = await merge(settings, "DEMO-1")
        merged = emulator.http.get(f"{PROJECT}/merge_requests/{mr['iid']}").json()
        with pytest.raises(CommandError) as again:
            await close(settings, "DEMO-1")
    assert said.startswith(f"Merged demo-gl/calc!{mr['iid']} ({merged['merge_commit_sha'][:7]})")
    assert merged["state"] == "merged" and merged["merged_by"]["username"] == "carol"
    assert str(again.value) == f"cannot close demo-gl/calc!{mr['iid']}: it is merged"


async def test_close_leaves_the_merge_request_closed_and_its_branch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with served(tmp_path) as emulator:
        mr = emulator.open_mr()
        on_merge_request(monkeypatch, mr["web_url"])
        said = await close(gitlab_settings(emulator.url), "DEMO-1")
        branch = emulator.git_out("rev-parse", "--verify", "refs/heads/" + mr["source_branch"])
    assert said == f"Closed demo-gl/calc!{mr['iid']} without merging (state: closed)."
    assert branch == mr["sha"]


async def test_a_url_of_neither_host_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    on_merge_request(monkeypatch, "https://example.com/some/page")
    with pytest.raises(CommandError) as unknown:
        await merge(Settings(), "DEMO-1")
    assert "is neither a GitHub nor a GitLab one" in str(unknown.value)
