"""GitLabClient against the GitLab emulator's REST v4, in-process and over real HTTP; the git
token a GitLab project gets; the project settings a GitLab project may have."""

from pathlib import Path

import httpx
import pytest
from temporalio.exceptions import ApplicationError

from integrations.git.tokens import TokensByHost
from integrations.github.auth import StaticToken
from integrations.gitlab.client import GitLabClient
from tests.emulators.helpers import add_branch
from tests.integrations.conftest import Emulator
from tickets.projects import ProjectConfig

PROJECT = "demo-gl/calc"


def client(emulator: Emulator) -> GitLabClient:
    return GitLabClient(f"{emulator.base_url}/api/v4", "token", transport=emulator.transport)


async def test_a_draft_merge_request_opened_once_updated_and_noted(
    emulator: Emulator, tmp_path: Path
) -> None:
    add_branch(tmp_path / "git" / "demo-gl" / "calc.git", "power", {"POWER.md": "soon\n"})
    async with client(emulator) as gitlab:
        assert await gitlab.find_open_merge_request(PROJECT, "power") is None
        with pytest.raises(ApplicationError) as refused:
            await gitlab.create_merge_request(PROJECT, "t", "d", "no-such-branch", "main")
        assert refused.value.type == "GitLabBadRequest" and "source_branch" in str(refused.value)
        # main into main: the emulator takes any existing branches, as a smoke of the shape.
        opened = await gitlab.create_merge_request(
            PROJECT, "Add power", "Body", "power", "main", True
        )
        assert opened.draft and opened.title == "Draft: Add power" and opened.iid == 1
        assert opened.url.endswith(f"/{PROJECT}/-/merge_requests/1")
        again = await gitlab.create_merge_request(
            PROJECT, "Add power", "Body", "power", "main", True
        )
        assert again.iid == opened.iid  # a retry finds the open one
        updated = await gitlab.update_description(PROJECT, opened.iid, "New body")
        assert updated.description == "New body"
        assert await gitlab.add_note(PROJECT, opened.iid, "hello") > 0


async def test_unknown_projects_and_missing_tokens_get_gitlabs_errors(emulator: Emulator) -> None:
    async with client(emulator) as gitlab:
        with pytest.raises(ApplicationError) as missing:
            await gitlab.find_open_merge_request("nobody/nothing", "main")
        assert missing.value.type == "GitLabNotFound" and "Project Not Found" in str(missing.value)
    async with httpx.AsyncClient(base_url=emulator.base_url, transport=emulator.transport) as http:
        anonymous = await http.get(f"/api/v4/projects/{PROJECT.replace('/', '%2F')}")
    assert anonymous.status_code == 401 and anonymous.json() == {"error": "401 Unauthorized"}


async def test_git_gets_the_gitlab_token_for_gitlab_projects_only() -> None:
    tokens = TokensByHost(StaticToken("github-token"), "gitlab-token", lambda r: r == PROJECT)
    assert await tokens.token(PROJECT) == "gitlab-token"
    assert await tokens.token("demo/calc") == "github-token"
    assert await tokens.token(None) == "github-token"


def test_a_gitlab_project_is_followed_but_tracked_in_jira() -> None:
    with pytest.raises(ValueError, match='needs code_host = "github"'):
        ProjectConfig(jira_project="GL", repository=PROJECT, code_host="gitlab", tracker="github")
    followed = ProjectConfig(jira_project="GL", repository=PROJECT, code_host="gitlab")
    assert followed.code_host == "gitlab" and followed.follow_pull_request
