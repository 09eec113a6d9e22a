"""`starter.py merge KEY` / `close KEY`: act on a ticket's pull request through the GitHub API,
and the lines `starter.py status` shows about it."""

from config import ProjectConfigError, Settings, project_for
from tickets.commands import CommandError, status
from workflows.messages import TicketStatus


async def _pull_request(settings: Settings, key: str) -> tuple[str, int]:
    """The repository and number of the ticket's pull request, or a clear error."""
    try:
        project = project_for(key, settings)
    except ProjectConfigError as err:
        raise CommandError(str(err)) from err
    current = await status(settings, key)
    number = current.pull_request.number if current.pull_request else None
    if number is None and current.pr_url:
        number = int(current.pr_url.rstrip("/").rsplit("/", 1)[1])
    if number is None:
        raise CommandError(f"{key} has no pull request yet (it is {current.status.value})")
    return project.repository, number


async def merge(settings: Settings, key: str) -> str:
    """Merge the ticket's pull request; the ticket closes when GitHub's webhook arrives."""
    from temporalio.exceptions import ApplicationError

    from integrations.github_pulls import PullRequestClient

    repository, number = await _pull_request(settings, key)
    token = settings.github_token.get_secret_value()
    async with PullRequestClient(settings.github_api_url, token) as github:
        try:
            sha = await github.merge_pull_request(repository, number)
        except ApplicationError as err:
            raise CommandError(f"cannot merge {repository}#{number}: {err.message}") from err
    return f"Merged {repository}#{number} ({sha[:7]}); {key} moves to done once GitHub says so."


async def close(settings: Settings, key: str) -> str:
    """Close the ticket's pull request without merging; its branch is left."""
    from temporalio.exceptions import ApplicationError

    from integrations.github_pulls import PullRequestClient

    repository, number = await _pull_request(settings, key)
    token = settings.github_token.get_secret_value()
    async with PullRequestClient(settings.github_api_url, token) as github:
        try:
            closed = await github.close_pull_request(repository, number)
        except ApplicationError as err:
            raise CommandError(f"cannot close {repository}#{number}: {err.message}") from err
    return f"Closed {repository}#{number} without merging (state: {closed.state})."


def review_lines(current: TicketStatus) -> list[str]:
    """The pull request's checks and rounds, for `starter.py status`."""
    view = current.pull_request
    if view is None:
        return []
    lines = [f"  pull request #{view.number}: {view.state}, head {(view.head_sha or '?')[:7]}"]
    for check in view.checks:
        lines.append(f"    check {check.name}: {check.conclusion}")
    lines.append(f"  rounds: {view.ci_rounds} CI fix, {view.review_rounds} review")
    for done in view.rounds:
        lines.append(f"    {done.kind} round {done.number}: {done.trigger} -> {done.outcome}")
    if view.waiting_for:
        lines.append(f"  waiting for: {view.waiting_for}")
    return lines
