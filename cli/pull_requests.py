"""`starter.py merge KEY` / `close KEY`: act on a ticket's pull request through the GitHub API,
or on its merge request through GitLab's."""

import argparse
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from cli.commands import CommandError, status
from config import CommandLineSettings, get_settings
from integrations.github.auth import github_token_source

if TYPE_CHECKING:
    from integrations.github.auth import TokenSource
    from integrations.gitlab.client import GitLabClient


async def _pull_request(settings: CommandLineSettings, key: str) -> tuple[str, str, int]:
    """The code host, repository and number of the ticket's pull or merge request (from its
    URL), or a clear error."""
    current = await status(settings, key)
    if not current.pr_url:
        raise CommandError(f"{key} has no pull request yet (it is {current.status.value})")
    path = urlparse(current.pr_url).path.strip("/")
    project, marker, iid = path.rpartition("/-/merge_requests/")
    if marker and iid.isdigit():
        return "gitlab", project, int(iid)
    parts = path.split("/")
    if len(parts) < 4 or parts[-2] != "pull" or not parts[-1].isdigit():
        raise CommandError(
            f"{key}'s pull request URL {current.pr_url} is neither a GitHub nor a GitLab one"
        )
    return "github", f"{parts[-4]}/{parts[-3]}", int(parts[-1])


async def merge(settings: CommandLineSettings, key: str) -> str:
    """Merge the ticket's pull request; the ticket closes when the code host's webhook arrives."""
    from temporalio.exceptions import ApplicationError

    from integrations.github.pulls import PullRequestClient

    host, repository, number = await _pull_request(settings, key)
    if host == "gitlab":
        return await _merge_on_gitlab(settings, key, repository, number)
    async with PullRequestClient(settings.github_api_url, _github_tokens(settings)) as github:
        try:
            sha = await github.merge_pull_request(repository, number)
        except ApplicationError as err:
            raise CommandError(f"cannot merge {repository}#{number}: {err.message}") from err
    return f"Merged {repository}#{number} ({sha[:7]}); {key} moves to done once GitHub says so."


async def close(settings: CommandLineSettings, key: str) -> str:
    """Close the ticket's pull request without merging; its branch is left."""
    from temporalio.exceptions import ApplicationError

    from integrations.github.pulls import PullRequestClient

    host, repository, number = await _pull_request(settings, key)
    if host == "gitlab":
        async with _gitlab(settings) as gitlab:
            try:
                found = await gitlab.merge_request(repository, number)
                if found.state != "opened":  # GitLab takes the request and changes nothing
                    raise CommandError(f"cannot close {repository}!{number}: it is {found.state}")
                closed = await gitlab.close(repository, number)
            except ApplicationError as err:
                raise CommandError(f"cannot close {repository}!{number}: {err.message}") from err
        return f"Closed {repository}!{number} without merging (state: {closed.state})."
    async with PullRequestClient(settings.github_api_url, _github_tokens(settings)) as github:
        try:
            closed_pr = await github.close_pull_request(repository, number)
        except ApplicationError as err:
            raise CommandError(f"cannot close {repository}#{number}: {err.message}") from err
    return f"Closed {repository}#{number} without merging (state: {closed_pr.state})."


async def _merge_on_gitlab(
    settings: CommandLineSettings, key: str, repository: str, iid: int
) -> str:
    """GitLab refuses to merge a draft: say so before asking."""
    from temporalio.exceptions import ApplicationError

    async with _gitlab(settings) as gitlab:
        try:
            if (await gitlab.merge_request(repository, iid)).draft:
                raise CommandError(
                    f"cannot merge {repository}!{iid}: it is a draft; mark it ready in GitLab "
                    "(take `Draft:` off its title) once its changes are reviewed"
                )
            sha = await gitlab.merge(repository, iid)
        except ApplicationError as err:
            raise CommandError(f"cannot merge {repository}!{iid}: {err.message}") from err
    return f"Merged {repository}!{iid} ({sha[:7]}); {key} moves to done once GitLab says so."


def _gitlab(settings: CommandLineSettings) -> "GitLabClient":
    from integrations.gitlab.client import GitLabClient

    return GitLabClient(settings.gitlab_api_url, settings.gitlab_token.get_secret_value())


async def merge_command(args: argparse.Namespace) -> str:
    """`starter.py merge KEY`."""
    from cli.terminal import check_key

    return await merge(get_settings(CommandLineSettings), check_key(args.key))


async def close_command(args: argparse.Namespace) -> str:
    """`starter.py close KEY`."""
    from cli.terminal import check_key

    return await close(get_settings(CommandLineSettings), check_key(args.key))


def _github_tokens(settings: CommandLineSettings) -> "TokenSource":
    """The settings' GitHub credentials; a GitHub App's unreadable key is a CommandError."""
    from integrations.github.app import GitHubAppConfigError

    try:
        return github_token_source(settings)
    except GitHubAppConfigError as err:
        raise CommandError(str(err)) from err
