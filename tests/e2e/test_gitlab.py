"""A Jira ticket on a GitLab project, end to end: the worker clones and pushes over git with
the GitLab token and opens a draft merge request through the GitLab emulator's REST v4."""

import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from embedded.demo import DEMO_KEY, drive
from embedded.stack import Stack
from harness.stacks import stack_settings
from tests.e2e.stacks import running
from workflows.ticket.messages import Status

pytestmark = pytest.mark.e2e
PROJECT = "demo-gl/calc"


@pytest.fixture(scope="module")
async def stack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stack]:
    data = tmp_path_factory.mktemp("gitlab")
    settings = stack_settings(data)
    settings.projects_file.write_text(
        f'[projects.DEMO]\nrepository = "{PROJECT}"\ncode_host = "gitlab"\n'
        "implement_after_approval = true\nfollow_pull_request = false\n"
    )
    async with running(settings) as started:
        yield started


async def test_a_jira_ticket_opens_a_draft_merge_request_on_gitlab(
    stack: Stack, tmp_path: Path
) -> None:
    settings = stack.settings
    result = await drive(settings)
    assert result.status == Status.COMPLETED, result.message
    assert result.branch and result.pr_url
    headers = {"PRIVATE-TOKEN": "any"}
    async with httpx.AsyncClient(base_url=settings.gitlab_api_url, timeout=10) as http:
        listed = await http.get(f"/projects/{PROJECT.replace('/', '%2F')}/merge_requests",
                                headers=headers)  # fmt: skip
        requests = (await http.get(f"{settings.jira_base_url}/_emulator/requests")).json()
    merge_requests = listed.json()
    assert [m["source_branch"] for m in merge_requests] == [result.branch]
    opened = merge_requests[0]
    assert opened["web_url"] == result.pr_url and opened["target_branch"] == "main"
    assert opened["draft"] is True and opened["title"].startswith("Draft: DEMO-1:")
    assert "Resolves DEMO-1" in opened["description"]
    # Nothing of the ticket went to GitHub: no pull request was opened there.
    github_posts = [r for r in requests if r["method"] == "POST" and "/pulls" in r["path"]]
    assert github_posts == []
    # The branch is on the GitLab project's repository, with the plan committed on it.
    url = f"{settings.gitlab_git_base_url}/{PROJECT}.git"
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--branch", result.branch, url, str(clone)], check=True)
    assert (clone / ".ticketsmith" / f"{DEMO_KEY}-plan.md").is_file()
